import TesseraCollection
import TesseraPhotoLibrary
import TesseraTerminal

/// What a key asks of the gallery screen (`GalleryScreen.perform(_:)` carries it out).
enum GalleryAction: Equatable {
  /// `q`: quit, printing the marked paths when asked to (`-o`).
  case quit
  /// Ctrl-C: quit, printing nothing.
  case interrupt
  /// Ctrl-Z: give the terminal back and stop, as a shell's job control expects.
  case suspend
  case refresh
  /// Ctrl-L: draw everything again, as every full-screen terminal program does.
  case redraw
  /// Opens the help card, or closes it when it is open.
  case toggleHelp
  /// `i`: the info panel of the photo shown or selected, or its end.
  case toggleInfo
  /// A local photo's detail view: open the file with `xdg-open`, or copy its path.
  case openExternally
  case copyPath
  /// Esc, Enter or Backspace over an overlay: back to the items.
  case closeOverlay
  /// Units to scroll by (negative: up).
  case scroll(Double)
  /// Where the selection moves, by the layout's geometry.
  case moveSelection(FocusMove)
  case pageDown
  case pageUp
  case jumpToFirst
  case jumpToLast
  case openSelected
  /// `m`: mark or unmark the selected photo; `v`: mark what the selection moves over; `*`:
  /// invert every mark.
  case toggleMark
  case toggleRangeMarking
  case invertMarks
  case changeColumns(Int)
  /// `d`: the marked photos (or the selected one; in the detail view, the one shown) to the
  /// Trash; `u`: the last ones back.
  case trash
  /// `u`: undoes the last `d` or culling key.
  case undo
  /// `0`–`5` rate, `x` rejects (or takes a reject back), `6`–`9` set a colour label (or take
  /// it off): in the photos' XMP sidecars, as Lightroom's and darktable's keys do.
  case rate(Int)
  case toggleReject
  case toggleLabel(PhotoCulling.Label)
  /// `#`: type tags to add (`-tag` removes one), Tab completing from the library's tags.
  case startTagging
  /// `L`: grid, list, waterfall in turn.
  case nextLayout
  /// `/`: type a name to filter by; `n`/`N`: the next or previous item whose name matches the
  /// last query.
  case startFilter
  case clearFilter
  case nextMatch(Int)
  /// `t`: the month index; in it, move and choose.
  case openMonthIndex
  case moveInIndex(Int)
  case chooseFromIndex
  /// Ctrl-x: the next key runs the key-handler.
  case keyHandlerPrefix
  /// The detail and compare views: zoom by a factor, back to fit, one photo pixel on one
  /// screen pixel (`z`, or back to fit), pan by a fraction of the box.
  case zoom(Double)
  case zoomToFit
  case zoomToActualPixels
  case pan(x: Double, y: Double)
  /// The detail view: the next or previous photo; the compare view: the chosen pane's.
  case showNeighbour(Int)
  /// `S`: opens the burst stack under the selection, or closes it.
  case toggleStack
  /// `c`: the compare view of the marked photos, or of the selected one and the next.
  case openCompare
  /// The compare view: Tab and Shift-Tab choose the pane the keys act on.
  case focusPane(Int)
  /// `s`: a slideshow from the photo shown (or selected), or its end.
  case toggleSlideshow
  /// A video in the detail view: Space pauses or plays on; ←/→ seek by ``GalleryScreen/seekStep``.
  case toggleVideoPlayback
  case seekVideo(forward: Bool)
  /// `p` on a Live Photo or motion photo: play its motion, or stop it.
  case toggleMotion
}

/// The keys of one mode of the screen, each bound to its action. The keymaps in force are
/// looked at in order (`chain(for:)`); the first that binds a key decides, and a key that none
/// binds does nothing. Modifiers are not looked at: a key is what `InputParser` made of it.
struct GalleryKeymap {
  let bindings: [Key: GalleryAction]

  init(_ groups: [([Key], GalleryAction)]) {
    var bindings: [Key: GalleryAction] = [:]
    for (keys, action) in groups {
      for key in keys { bindings[key] = action }
    }
    self.bindings = bindings
  }

  func action(for key: Key) -> GalleryAction? { bindings[key] }

  /// In every mode: quit, suspend, redraw, the help card.
  static let global = GalleryKeymap([
    ([.character("q")], .quit),
    ([.control("c")], .interrupt),
    ([.control("z")], .suspend),
    ([.control("l")], .redraw),
    ([.character("?")], .toggleHelp),
  ])

  /// Zoom and pan, in the detail and the compare views.
  static let zoomAndPanKeys: [([Key], GalleryAction)] = [
    ([.character("+"), .character("=")], .zoom(GalleryScreen.zoomStep)),
    ([.character("-"), .character("_")], .zoom(1 / GalleryScreen.zoomStep)),
    ([.character("f")], .zoomToFit),
    ([.character("z")], .zoomToActualPixels),
    ([.left, .character("h")], .pan(x: -GalleryScreen.panStep, y: 0)),
    ([.right, .character("l")], .pan(x: GalleryScreen.panStep, y: 0)),
    ([.up, .character("k")], .pan(x: 0, y: -GalleryScreen.panStep)),
    ([.down, .character("j")], .pan(x: 0, y: GalleryScreen.panStep)),
    ([.space, .pageDown], .showNeighbour(1)),
    ([.backspace, .pageUp], .showNeighbour(-1)),
  ]

  /// The detail view of any item: zoom, pan, neighbours, slideshow, marks.
  static let detail = GalleryKeymap(
    zoomAndPanKeys + [
      ([.character("s")], .toggleSlideshow),
      ([.character("m")], .toggleMark),
      ([.character("i")], .toggleInfo),
      ([.control("x")], .keyHandlerPrefix),
    ])

  /// The compare view: the panes' shared zoom and pan, the chosen pane, and culling on it.
  static let compare = GalleryKeymap(
    zoomAndPanKeys + [
      ([.tab], .focusPane(1)),
      ([.backTab], .focusPane(-1)),
      ([.enter], .openSelected),
      ([.character("m")], .toggleMark),
      ([.character("i")], .toggleInfo),
      ([.character("u")], .undo),
    ] + cullingKeys)

  /// A video in the detail view, before the detail view's own keys.
  static let videoDetail = GalleryKeymap([
    ([.space], .toggleVideoPlayback),
    ([.left], .seekVideo(forward: false)),
    ([.right], .seekVideo(forward: true)),
  ])

  /// The month index (`t`).
  static let monthIndex = GalleryKeymap([
    ([.down, .character("j")], .moveInIndex(1)),
    ([.up, .character("k")], .moveInIndex(-1)),
    ([.pageDown, .space], .moveInIndex(10)),
    ([.pageUp], .moveInIndex(-10)),
    ([.enter], .chooseFromIndex),
    ([.character("t")], .closeOverlay),
  ])

  /// Culling: in the grid and in a local photo's detail view.
  static let cullingKeys: [([Key], GalleryAction)] =
    (0...5).map { ([.character(Character(String($0)))], .rate($0)) }
    + [([.character("x")], .toggleReject)]
    + zip(["6", "7", "8", "9"], [PhotoCulling.Label.red, .yellow, .green, .blue]).map {
      ([.character(Character($0))], .toggleLabel($1))
    }
    + [([.character("#")], .startTagging)]

  /// The detail view of a local photo, before the overlay's own keys.
  static let localDetail = GalleryKeymap(
    [
      ([.character("o")], .openExternally),
      ([.character("y")], .copyPath),
      ([.character("d")], .trash),
      ([.character("u")], .undo),
      ([.character("p")], .toggleMotion),
    ] + cullingKeys)

  /// Any overlay (help, detail): it takes every key; these close it.
  static let overlay = GalleryKeymap([
    ([.escape, .enter, .backspace], .closeOverlay)
  ])

  /// The items, with no overlay over them.
  static let browsing = GalleryKeymap(
    [
      ([.down, .character("j")], .scroll(GalleryScreen.scrollStep)),
      ([.up, .character("k")], .scroll(-GalleryScreen.scrollStep)),
      ([.right, .character("l")], .moveSelection(.right)),
      ([.left, .character("h")], .moveSelection(.left)),
      ([.character("J")], .moveSelection(.down)),
      ([.character("K")], .moveSelection(.up)),
      ([.pageDown, .space, .control("f")], .pageDown),
      ([.pageUp, .control("b")], .pageUp),
      ([.home, .character("g")], .jumpToFirst),
      ([.end, .character("G")], .jumpToLast),
      ([.enter], .openSelected),
      ([.character("L")], .nextLayout),
      ([.character("+"), .character("=")], .changeColumns(1)),
      ([.character("-"), .character("_")], .changeColumns(-1)),
      ([.character("r")], .refresh),
      ([.character("m")], .toggleMark),
      ([.character("v")], .toggleRangeMarking),
      ([.character("*")], .invertMarks),
      ([.character("d")], .trash),
      ([.character("u")], .undo),
      ([.character("/")], .startFilter),
      ([.escape], .clearFilter),
      ([.character("n")], .nextMatch(1)),
      ([.character("N")], .nextMatch(-1)),
      ([.character("t")], .openMonthIndex),
      ([.character("c")], .openCompare),
      ([.character("S")], .toggleStack),
      ([.character("s")], .toggleSlideshow),
      ([.character("i")], .toggleInfo),
      ([.control("x")], .keyHandlerPrefix),
    ] + cullingKeys)

  /// Every keymap, for the test that each key is documented.
  static let all = [
    global, detail, videoDetail, monthIndex, localDetail, compare, overlay, browsing,
  ]

  /// The keymaps in force while `overlay` is shown, first to last.
  static func chain(for overlay: GalleryScreen.Overlay) -> [GalleryKeymap] {
    switch overlay {
    case .none: [global, browsing]
    case .help: [global, Self.overlay]
    case .monthIndex: [global, monthIndex, Self.overlay]
    case .compare: [global, compare, Self.overlay]
    case .detail(let item):
      item.local == nil
        ? [global, detail, Self.overlay]
        : item.local?.isVideo == true
          ? [global, videoDetail, localDetail, detail, Self.overlay]
          : [global, localDetail, detail, Self.overlay]
    }
  }

  /// What `key` does while `overlay` is shown; nil when nothing.
  static func action(for key: Key, over overlay: GalleryScreen.Overlay) -> GalleryAction? {
    for keymap in chain(for: overlay) {
      if let action = keymap.action(for: key) { return action }
    }
    return nil
  }
}
