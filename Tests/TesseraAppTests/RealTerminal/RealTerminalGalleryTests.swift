import Testing

/// The real-terminal suites, one after the other: each test starts an X server, a terminal and
/// a gallery, and two cores do not run two of those side by side without the screens falling
/// behind the tests' deadlines.
@Suite(.serialized, .timeLimit(.minutes(5)))
enum RealTerminalTests {
  /// The gallery in xterm as a VT340 (sixel), on a private Xvfb display. Skipped, with the
  /// missing Debian packages named, when xvfb, xterm, imagemagick or xdotool is not installed.
  @Suite(
    .serialized, .timeLimit(.minutes(5)),
    .enabled(
      if: RealTerminalKind.xterm.missingPackages.isEmpty,
      Comment(rawValue: RealTerminalKind.xterm.skipReason)))
  struct XtermGalleryTests {
    @Test func firstScreenFlingAndAfter() throws {
      try RealTerminalScenarios.firstScreenFlingAndAfter(.xterm)
    }

    @Test func resizeKeepsEveryImageOnItsItem() throws {
      try RealTerminalScenarios.resize(.xterm)
    }

    @Test func gridListAndWaterfallShowUndistortedImages() throws {
      try RealTerminalScenarios.layouts(.xterm)
    }

    @Test func waterfallAtLaunchFollowsEachPhotosShape() throws {
      try RealTerminalScenarios.waterfallAtLaunch(.xterm)
    }

    @Test func theHelpCardHidesTheImagesUnderIt() throws {
      try RealTerminalScenarios.helpOverImages(.xterm)
    }

    @Test func thePinnedMonthHeaderHidesThePicturesUnderIt() throws {
      try PinnedHeaderScenario.run(.xterm)
    }

    @Test func onBlackOnWhiteTheMonthHeaderReads() throws {
      try LightBackgroundScenario.run(.xterm)
    }

    @Test func aFlingOverASlowLinkSettlesOnTheRightTiles() throws {
      try RealTerminalScenarios.flingOverASlowLink(.xterm)
    }

    /// Sixel through tmux's passthrough (tmux 3.3 draws no sixel itself).
    @Test func insideTmuxThroughPassthrough() throws {
      try RealTerminalScenarios.insideTmux(.xterm)
    }

    @Test func insideTmuxSplitSwitchAndCloseKeepImagesOnTheirTiles() throws {
      try RealTerminalScenarios.tmuxSplitAndSwitch(.xterm)
    }
  }

  /// The gallery in mlterm (sixel, painted a band of six rows at a time), on a private Xvfb
  /// display: every tile its own image, undistorted, the same crops as kitty's; captions and
  /// the status bar in their colours. Skipped, with the missing Debian packages named, when
  /// mlterm, xvfb, imagemagick or xdotool is not installed.
  @Suite(
    .serialized, .timeLimit(.minutes(5)),
    .enabled(
      if: RealTerminalKind.mlterm.missingPackages.isEmpty,
      Comment(rawValue: RealTerminalKind.mlterm.skipReason)))
  struct MltermGalleryTests {
    @Test func firstScreenFlingAndAfter() throws {
      try RealTerminalScenarios.firstScreenFlingAndAfter(.mlterm)
    }

    @Test func gridListAndWaterfallShowUndistortedImages() throws {
      try RealTerminalScenarios.layouts(.mlterm)
    }

    @Test func captionsAndTheStatusBarKeepTheirColours() throws {
      try RealTerminalScenarios.barsAndCaptionsInTheirColours(.mlterm)
    }

    /// Sixel through tmux's passthrough, as in xterm.
    @Test func insideTmuxThroughPassthrough() throws {
      try RealTerminalScenarios.insideTmux(.mlterm)
    }

    @Test func insideTmuxSplitSwitchAndCloseKeepImagesOnTheirTiles() throws {
      try RealTerminalScenarios.tmuxSplitAndSwitch(.mlterm)
    }
  }

  /// The gallery in kitty (the kitty graphics protocol, software GL), on a private Xvfb
  /// display. Skipped, with the missing Debian packages named, when xvfb, kitty, imagemagick or
  /// xdotool is not installed.
  @Suite(
    .serialized, .timeLimit(.minutes(5)),
    .enabled(
      if: RealTerminalKind.kitty.missingPackages.isEmpty,
      Comment(rawValue: RealTerminalKind.kitty.skipReason)))
  struct KittyGalleryTests {
    @Test func firstScreenFlingAndAfter() throws {
      try RealTerminalScenarios.firstScreenFlingAndAfter(.kitty)
    }

    @Test func resizeKeepsEveryImageOnItsItem() throws {
      try RealTerminalScenarios.resize(.kitty)
    }

    @Test func gridListAndWaterfallShowUndistortedImages() throws {
      try RealTerminalScenarios.layouts(.kitty)
    }

    @Test func waterfallAtLaunchFollowsEachPhotosShape() throws {
      try RealTerminalScenarios.waterfallAtLaunch(.kitty)
    }

    @Test func theHelpCardHidesTheImagesUnderIt() throws {
      try RealTerminalScenarios.helpOverImages(.kitty)
    }

    @Test func thePinnedMonthHeaderHidesThePicturesUnderIt() throws {
      try PinnedHeaderScenario.run(.kitty)
    }

    @Test func theCompareViewShowsEachPhotoInItsPaneUndistorted() throws {
      try CullingViewsScenario.compare(.kitty)
    }

    @Test func theInfoPanelHidesThePicturesUnderIt() throws {
      try CullingViewsScenario.infoPanel(.kitty)
    }

    @Test func aBurstIsOnePicturedTileAndSShowsItsFrames() throws {
      try CullingViewsScenario.stacks(.kitty)
    }

    /// Debian 12's kitty 0.26 draws no Unicode placeholders: placements go through tmux's
    /// passthrough at the pane's cells; a kitty from 0.28 gets placeholders.
    @Test func insideTmux() throws {
      try RealTerminalScenarios.insideTmux(.kitty)
    }

    @Test func insideTmuxSplitSwitchAndCloseKeepImagesOnTheirTiles() throws {
      try RealTerminalScenarios.tmuxSplitAndSwitch(.kitty)
    }

    /// kitty's own animation: the GIF moves on screen while the gallery writes nothing.
    @Test func aGIFPlaysByKittysAnimationWithNothingSentAfterItsUpload() throws {
      try MotionInKittyScenario.animationPlaysByItself()
    }

    @Test func aVideoPlaysAndEscLeavesNoDecoder() throws {
      try MotionInKittyScenario.videoPlaysAndEscStopsItsDecoder()
    }
  }

  /// The gallery in Konsole (its own choice of protocol: kitty's), on a private Xvfb display:
  /// every tile its own image on the first screen, through a fling, in the grid, list and
  /// waterfall, under the help card; iTerm2's inline images when asked for; and inside tmux
  /// (the kitty protocol through passthrough), through a split, a pane switch and a close.
  /// Konsole cannot tell its text, so outside tmux the text is the gallery's recorded output
  /// replayed into a private tmux (`TerminalReplay`).
  @Suite(
    .serialized, .timeLimit(.minutes(5)),
    .enabled(
      if: RealTerminalKind.konsole.missingPackages.isEmpty,
      Comment(rawValue: RealTerminalKind.konsole.skipReason)))
  struct KonsoleGalleryTests {
    @Test func firstScreenFlingAndAfter() throws {
      try RealTerminalScenarios.firstScreenFlingAndAfter(.konsole)
    }

    @Test func gridListAndWaterfallShowUndistortedImages() throws {
      try RealTerminalScenarios.layouts(.konsole)
    }

    @Test func theHelpCardHidesTheImagesUnderIt() throws {
      try RealTerminalScenarios.helpOverImages(.konsole)
    }

    /// OSC 1337 with each tile's JPEG: Konsole decodes and places them, each on its item,
    /// cropped to the grid's tiles as kitty's are.
    @Test func iTerm2InlineImagesOnTheFirstScreen() throws {
      try RealTerminalScenarios.iTerm2FirstScreen(.konsole)
    }

    @Test func insideTmuxThroughPassthrough() throws {
      try RealTerminalScenarios.insideTmux(.konsole)
    }

    @Test func insideTmuxSplitSwitchAndCloseKeepImagesOnTheirTiles() throws {
      try RealTerminalScenarios.tmuxSplitAndSwitch(.konsole)
    }
  }
}
