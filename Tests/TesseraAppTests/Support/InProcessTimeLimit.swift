import Testing

extension Trait where Self == TimeLimitTrait {
  /// The limit of a suite that runs the gallery's screen in this process (a walk, header
  /// reads, a screen settling): its awaits resume on Swift's cooperative pool, which has two
  /// threads on a two-core machine, and the end-to-end suites beside it hold those threads
  /// while they wait on tmux and X (their waits block). Seen in full runs: such a test, done
  /// in 0.3 s alone, waited 60–100 s for a thread. The limit is there to end a hang, and
  /// three minutes still does.
  static var inProcessScreen: Self { .timeLimit(.minutes(3)) }
}
