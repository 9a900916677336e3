import Console
import Testing

/// The command lines of the serial console and the control socket: every ending a terminal or a
/// tool sends, pieces arriving in any cut, and an oversized line refused whole (issue #29).
@Suite struct LineFramerTests {
    @Test func everyLineEndingAndAnyCut() {
        let text = Array("status\r\ngo 49.4,8.6\rcancel\n\n\r\nrepeat\n".utf8)
        var whole = LineFramer(limit: 64)
        let expected: [LineFramer.Item] = [.line("status"), .line("go 49.4,8.6"), .line("cancel"), .line("repeat")]
        #expect(whole.feed(text) == expected)
        // a byte at a time gives the same lines
        var bytewise = LineFramer(limit: 64)
        #expect(text.flatMap { bytewise.feed([$0]) } == expected)
        // an unfinished line waits for its end
        var f = LineFramer(limit: 64)
        #expect(f.feed(Array("stat".utf8)).isEmpty)
        #expect(f.feed(Array("us\n".utf8)) == [.line("status")])
    }

    @Test func aLineOverTheLimitIsRefusedWholeNeverCutAndRun() {
        // the tail "cancel" of an oversized line must not run as a command of its own
        let long = String(repeating: " ", count: 600) + "cancel\n"
        for cut in [1, 7, 256, 4096] {
            var f = LineFramer(limit: 512)
            let bytes = Array((long + "status\n").utf8)
            var items = [LineFramer.Item]()
            var i = 0
            while i < bytes.count {
                items += f.feed(bytes[i..<min(bytes.count, i + cut)])
                i += cut
            }
            #expect(items == [.tooLong(limit: 512), .line("status")], "cut \(cut): \(items)")
        }
        // exactly at the limit is a line
        var f = LineFramer(limit: 4)
        #expect(f.feed(Array("abcd\nabcde\nx\n".utf8)) == [.line("abcd"), .tooLong(limit: 4), .line("x")])
    }
}
