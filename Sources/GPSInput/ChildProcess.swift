import FoundationEssentials
import Glibc
import Platform

/// A helper program (gpsfake, gpsd, socat) started with posix_spawn.
///
/// Why not Foundation.Process: a child inherits the blocked-signal mask of the spawning thread,
/// and Dispatch and Swift-concurrency threads block SIGTERM, so a child started from one ignores
/// SIGTERM and waiting for it hangs (PLATFORM-NOTES §7). Here the child gets an empty mask and
/// default handlers, and its own process group so that stopping it also stops what it started
/// (gpsfake's gpsd).
///
/// The group does not outlive tern: a watchdog (a shell in a group of its own) stops it within
/// about a second when tern dies, even by SIGKILL, which no handler of tern's can catch (issue
/// #29: a killed replay left gpsfake and gpsd running). PR_SET_PDEATHSIG would reach gpsfake
/// alone, and posix_spawn cannot set it.
public final class ChildProcess: @unchecked Sendable {
    // pid is written once in init; `exitStatus` is guarded by `lock`.
    public let pid: pid_t
    public let program: String
    /// The watchdog's pid (0: none), and whether it was reaped (guarded by `lock`: its pid must
    /// never be signalled again once reaped, it may be another process's by then).
    private let watchdog: pid_t
    private var watchdogReaped = false
    private let lock = Lock()
    private var exitStatus: Int32?

    /// Starts `program` (a path, or a name looked up in PATH plus /usr/sbin and /sbin) with `arguments`.
    /// Output goes to `outputPath` (appended) or /dev/null.
    public init(_ program: String, _ arguments: [String], outputPath: String? = nil, environment: [String: String] = [:]) throws {
        self.program = program
        guard let path = ChildProcess.find(program) else {
            throw GPSInputError.cannotStart(program: program, reason: "not found in PATH (is its package installed?)")
        }
        pid = try ChildProcess.spawn(path, arguments, outputPath: outputPath, environment: environment, program: program)
        // (polls once a second: tern alive and the group alive; tern gone: TERM, then KILL, to the group)
        let script = "trap '' INT HUP; while kill -0 $1 2>/dev/null && kill -0 -$2 2>/dev/null; do sleep 1; done; "
            + "kill -0 $1 2>/dev/null || { kill -TERM -$2 2>/dev/null; sleep 1; kill -KILL -$2 2>/dev/null; }"
        watchdog = (try? ChildProcess.spawn("/bin/sh", ["-c", script, "sh", String(getpid()), String(pid)], outputPath: nil,
                                             environment: [:], program: "sh")) ?? 0
    }

    /// posix_spawn with an empty signal mask, default handlers, a process group of its own and
    /// standard input from /dev/null; the child's pid.
    private static func spawn(_ path: String, _ arguments: [String], outputPath: String?, environment: [String: String],
                              program: String) throws -> pid_t {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let out = outputPath ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var env = ProcessInfo.processInfo.environment
        env["PATH"] = ChildProcess.searchPath
        for (k, v) in environment { env[k] = v }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attr, argv, envp)
        guard rc == 0 else { throw GPSInputError.cannotStart(program: program, reason: String(cString: strerror(rc))) }
        return child
    }

    deinit { if isRunning { stop() } else { endWatchdog() } }

    static var searchPath: String {
        var dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for d in ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"] where !dirs.contains(d) { dirs.append(d) }
        return dirs.joined(separator: ":")
    }

    /// The full path of a program, or nil.
    public static func find(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        for dir in searchPath.split(separator: ":") {
            let p = "\(dir)/\(program)"
            if access(p, X_OK) == 0 { return p }
        }
        return nil
    }

    /// Reaps the child if it has exited; true while it runs.
    public var isRunning: Bool {
        lock.lock(); defer { lock.unlock() }
        if exitStatus != nil { return false }
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == pid { exitStatus = status; return false }
        if r < 0 { exitStatus = -1; return false }
        return true
    }

    /// Waits up to `timeout` seconds; returns the raw wait status, or nil if still running.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() >= deadline { return nil }
            usleep(10_000)
        }
        lock.lock(); defer { lock.unlock() }
        return exitStatus
    }

    /// Sends a signal to the child's whole process group.
    public func signal(_ sig: Int32) {
        if isRunning { kill(-pid, sig) }
    }

    /// SIGTERM, then SIGKILL to the group after `grace` seconds; always reaps the child.
    public func stop(grace: Double = 2) {
        guard isRunning else {
            kill(-pid, SIGKILL)
            endWatchdog()
            return
        }
        kill(-pid, SIGTERM)
        if wait(timeout: grace) == nil {
            kill(-pid, SIGKILL)
            wait(timeout: 5)
        }
        kill(-pid, SIGKILL)  // whatever the leader left behind in its group
        endWatchdog()
    }

    /// Stops and reaps the watchdog (once; later calls find nothing to reap).
    private func endWatchdog() {
        let reap = lock.withLock { () -> Bool in defer { watchdogReaped = true }; return watchdog > 0 && !watchdogReaped }
        guard reap else { return }
        kill(-watchdog, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(watchdog, &status, 0)
    }
}
