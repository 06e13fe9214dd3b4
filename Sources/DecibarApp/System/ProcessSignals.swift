import Glibc

/// How the program treats signals from its first moment.
public enum ProcessSignals {
    /// Past a file-size limit, or to a reader that went away (a pipe, a child, a socket), a write
    /// should fail with an error we report, not kill us. And a parent may start us with signals
    /// blocked (some process launchers leave their own mask in place); then Ctrl-C or `kill` would be
    /// ignored: the ones that should end the program are unblocked.
    public static func prepare() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
    }
}
