import Foundation
import Platform
import Testing

@Suite struct ThreadsAndErrorsTests {
    /// A thread started by `Threads.start` runs its body and carries its name, as `top -H` shows it.
    @Test func threadRunsNamed() throws {
        final class Seen: @unchecked Sendable { let lock = Lock(); var name = "" }
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        Threads.start(name: "tern.test-name-that-is-long") {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            seen.lock.withLock { seen.name = comm.trimmed() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        // the kernel keeps 15 bytes of a thread's name
        #expect(seen.lock.withLock { seen.name } == "tern.test-name-")
    }

    /// File errors read as the C library says them, as `localizedDescription` did.
    @Test func errorTextNamesTheReason() {
        do {
            try "x".write(toFile: "/nonexistent-dir/file", atomically: false, encoding: .utf8)
            Issue.record("the write should have failed")
        } catch {
            #expect(errorText(error).contains("No such file"), "\(errorText(error))")
        }
        #expect(errorText(POSIXError(.ENOSPC)) == "No space left on device")
    }
}
