import Foundation
import Platform
import TestSupport
import Testing
@testable import TernApp

/// The control socket's server on its own (issue #29): a client that stops reading never blocks
/// the engine, it is told what it lost; an oversized line is refused whole; the connection limit
/// and the idle timeout; a second tern does not take a live socket over.
@Suite(.serialized) struct ControlServerTests {
    /// A server whose lines are answered as `tern run` answers them: `watch` makes a watcher.
    final class Harness: @unchecked Sendable {
        let dir = TempDir()
        let lock = Lock()
        var lines: [String] = []
        var server: ControlServer!
        init(limits: ControlServer.Limits = .init()) throws {
            server = try ControlServer(path: dir.file("control"), limits: limits) { [unowned self] line, conn in
                lock.withLock { lines.append(line) }
                if line == "watch" {
                    server.send("ok: watching", to: conn)
                    server.watch(conn)
                } else {
                    server.send("ok: \(line)", to: conn)
                }
            }
        }
        var received: [String] { lock.withLock { lines } }
        func stop() { server.stop(); dir.remove() }
    }

    @Test func aWatcherThatStopsReadingNeverBlocksTheEngine() throws {
        let h = try Harness()
        defer { h.stop() }
        let stalled = try Client(h.server.path)
        defer { stalled.close() }
        stalled.send("watch\n")
        #expect(waitUntil(seconds: 5) { h.received == ["watch"] })
        // 6 MB of events, far past any socket buffer, while the client reads nothing
        let line = #"{"event":"position","pad":""# + String(repeating: "x", count: 280) + #""}"#
        let done = DispatchSemaphore(value: 0)
        let started = Date()
        Thread.detachNewThread {
            for i in 0..<20_000 { h.server.broadcast(line + "\(i)") }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + TestTiming.seconds(10)) == .success
        #expect(finished, "broadcast blocked on a client that does not read")
        guard finished else { return }
        #expect(Date().timeIntervalSince(started) < TestTiming.seconds(5))
        // the client reads at last: the reply, then a gap line saying how many went, the newest last
        let got = stalled.readLines(until: { $0.last?.hasSuffix("19999") == true }, seconds: 10)
        #expect(got.first == "ok: watching")
        #expect(got.last?.hasSuffix("19999") == true, "\(got.suffix(2))")
        // (one gap line where lines went; more than one when the server's thread wrote a few
        // lines between the drops, as it does on a busy machine; together they count every loss)
        let gaps = got.filter { $0.hasPrefix(#"{"event":"gap","dropped":"#) }
        #expect(!gaps.isEmpty, "no gap line")
        let dropped = gaps.compactMap { Int($0.dropFirst(#"{"event":"gap","dropped":"#.count).dropLast()) }.reduce(0, +)
        let events = got.filter { $0.hasPrefix(#"{"event":"position""#) }
        #expect(dropped > 0 && dropped + events.count == 20_000, "\(dropped) dropped, \(events.count) read")
        // at most the outbox and the socket's buffer were held for it
        #expect(events.count * 300 < 64 * 1024 + 1024 * 1024)
    }

    @Test func anOversizedLineIsRefusedWholeAndItsTailNeverRuns() throws {
        let h = try Harness()
        defer { h.stop() }
        let c = try Client(h.server.path)
        defer { c.close() }
        // 4500 bytes: once the old server took it whole (the newline came in the same read)
        c.send(String(repeating: " ", count: 4490) + "cancel\n" + "status\n")
        let got = c.readLines(until: { $0.count >= 2 }, seconds: 5)
        #expect(got == ["error: line too long (at most 4096 bytes); it was not run", "ok: status"], "\(got)")
        #expect(h.received == ["status"])
    }

    @Test func connectionsAreLimitedAndIdleOnesMakeRoom() throws {
        var limits = ControlServer.Limits()
        limits.connections = 4
        limits.idleSeconds = 2
        let h = try Harness(limits: limits)
        defer { h.stop() }
        let idle = try (0..<4).map { _ in try Client(h.server.path) }
        defer { idle.forEach { $0.close() } }
        #expect(waitUntil(seconds: 5) { h.server.connectionCount == 4 })
        // at the limit, the client silent the longest is closed for a new one
        let maintainer = try Client(h.server.path)
        defer { maintainer.close() }
        #expect(idle[0].readLines(until: { !$0.isEmpty }, seconds: 5) == ["error: closed to make room: too many control connections (at most 4)"])
        maintainer.send("status\n")
        #expect(maintainer.readLines(until: { !$0.isEmpty }, seconds: 5) == ["ok: status"])
        // when all are watching, a new client is told to try later
        for c in idle.dropFirst() + [maintainer] { c.send("watch\n") }
        #expect(waitUntil(seconds: 5) { h.received.filter { $0 == "watch" }.count == 4 })
        let late = try Client(h.server.path)
        defer { late.close() }
        #expect(late.readLines(until: { !$0.isEmpty }, seconds: 5).first?.hasPrefix("error: too many control connections (at most 4), all watching") == true)
        #expect(h.server.connectionCount == 4)
    }

    @Test func anIdleCommandClientIsClosed() throws {
        var limits = ControlServer.Limits()
        limits.idleSeconds = 1
        let h = try Harness(limits: limits)
        defer { h.stop() }
        let watcher = try Client(h.server.path), idle = try Client(h.server.path)
        defer { watcher.close(); idle.close() }
        watcher.send("watch\n")
        #expect(waitUntil(seconds: 5) { h.server.connectionCount == 2 && h.received == ["watch"] })
        #expect(waitUntil(seconds: 5) { h.server.connectionCount == 1 })
        h.server.broadcast("still here")
        #expect(watcher.readLines(until: { $0.count >= 2 }, seconds: 5) == ["ok: watching", "still here"])
    }

    @Test func aSecondServerDoesNotTakeOverALiveSocketButReplacesAStaleOne() throws {
        let h = try Harness()
        defer { h.stop() }
        #expect(throws: ControlServer.Held.self) { try ControlServer(path: h.server.path) { _, _ in } }
        // the first still answers
        let c = try Client(h.server.path)
        defer { c.close() }
        c.send("status\n")
        #expect(c.readLines(until: { !$0.isEmpty }, seconds: 5) == ["ok: status"])
        // a socket file left by a crash (nobody listens) is replaced
        let dir = TempDir()
        defer { dir.remove() }
        let stale = dir.file("stale")
        var addr = try ControlServer.address(stale)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        #expect(FileManager.default.fileExists(atPath: stale))
        let s = try ControlServer(path: stale) { _, _ in }
        s.stop()
    }
}

/// A raw client of the control socket (what `tern ctl` does, without its reply rules).
final class Client {
    let fd: Int32
    private var pending = [UInt8]()
    init(_ path: String) throws {
        var addr = try ControlServer.address(path)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 { Glibc.close(fd); throw CocoaError(.fileNoSuchFile) }
    }
    func send(_ s: String) {
        let bytes = Array(s.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }
    /// Reads lines until `done` holds for what was read, the peer closes, or `seconds` pass.
    func readLines(until done: ([String]) -> Bool, seconds: Double) -> [String] {
        var lines = [String]()
        let deadline = Date().addingTimeInterval(TestTiming.seconds(seconds))
        var buf = [UInt8](repeating: 0, count: 65536)
        while !done(lines) && Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) <= 0 { continue }
            let n = read(fd, &buf, buf.count)
            if n <= 0 { break }
            pending += buf[0..<n]
            while let nl = pending.firstIndex(of: 10) {
                lines.append(String(decoding: pending[..<nl], as: UTF8.self))
                pending.removeSubrange(...nl)
            }
        }
        return lines
    }
    func close() { Glibc.close(fd) }
}
