import Console
import Foundation
import Geo
import Guidance
import Navigation
import TestSupport
import Testing

/// A pseudo-terminal pair standing in for the UART: the app opens the slave by path, as it would
/// open /dev/ttyS0; the test reads the master.
final class PTY {
    let master: Int32
    let slavePath: String
    init() throws {
        var m: Int32 = 0, s: Int32 = 0
        var name = [CChar](repeating: 0, count: 128)
        guard openpty(&m, &s, &name, nil, nil) == 0 else { throw ConsoleError("openpty: \(String(cString: strerror(errno)))") }
        master = m
        slavePath = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        close(s)  // the app opens it by path
    }
    /// Reads what arrives within `seconds`.
    func read(for seconds: Double) -> [UInt8] {
        var out = [UInt8]()
        let deadline = Date().addingTimeInterval(TestTiming.seconds(seconds))
        var buf = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 50) > 0 {
                let n = Foundation.read(master, &buf, buf.count)
                if n > 0 { out += buf[0..<n] } else { break }
            }
        }
        return out
    }
    func write(_ s: String) { _ = s.withCString { Foundation.write(master, $0, strlen($0)) } }
    deinit { close(master) }
}

@Suite struct SerialConsoleTests {
    @Test func statusLinesArriveIntactOnAPty() throws {
        let pty = try PTY()
        let console = try SerialConsole(path: pty.slavePath, baud: 115_200)
        let lines = (1...3).map { StatusLine(text: "[GUIDING] Turn left onto Hauptstraße in \($0 * 100) m | 3.2 km 6 min ETA 12:34 | 48 km/h | 3D") }
        for l in lines {
            console.write(l)
            usleep(20_000)  // one per fix; the console keeps only the newest few when flooded
        }
        let got = String(decoding: pty.read(for: 0.5), as: UTF8.self)
        console.close()
        #expect(got == lines.map { $0.text + "\r\n" }.joined())
    }

    @Test func baudRateIsApplied() throws {
        let pty = try PTY()
        let console = try SerialConsole(path: pty.slavePath, baud: 9600)
        defer { console.close() }
        let fd = open(pty.slavePath, O_RDWR | O_NOCTTY)
        defer { close(fd) }
        var tio = termios()
        tcgetattr(fd, &tio)
        #expect(cfgetospeed(&tio) == speed_t(B9600))
        #expect(tio.c_lflag & tcflag_t(ICANON | ECHO) == 0)  // raw
    }

    @Test func commandsTypedOnTheConsoleArrive() throws {
        let pty = try PTY()
        let received = Collector<String>()
        let console = try SerialConsole(path: pty.slavePath, onLine: { received.append($0) })
        defer { console.close() }
        pty.write("go 49.4093,8.6937\r\nbogus\n")
        #expect(waitUntil(seconds: 3) { received.count == 2 })
        #expect(received.all == ["go 49.4093,8.6937", "bogus"])
    }

    @Test func unsupportedBaudAndMissingDeviceAreErrors() {
        #expect(throws: ConsoleError.self) { try SerialConsole(path: "/dev/null", baud: 12345) }
        #expect(throws: ConsoleError.self) { try SerialConsole(path: "/nonexistent/ttyS9") }
        #expect(throws: ConsoleError.self) { try SerialConsole(path: "/dev/null") }  // not a terminal
    }
}

@Suite struct ConsoleCommandTests {
    @Test func goodCommands() throws {
        #expect(try ConsoleCommand.parse("go 49.4093,8.6937") == .go(destination: Coordinate(latitude: 49.4093, longitude: 8.6937), vias: []))
        #expect(try ConsoleCommand.parse("GO 1,2 via 3,4 via 5,6")
            == .go(destination: Coordinate(latitude: 1, longitude: 2), vias: [Coordinate(latitude: 3, longitude: 4), Coordinate(latitude: 5, longitude: 6)]))
        #expect(try ConsoleCommand.parse("cancel") == .cancel)
        #expect(try ConsoleCommand.parse("mute off") == .mute(false))
        #expect(try ConsoleCommand.parse("volume 40") == .volume(40))
        #expect(try ConsoleCommand.parse("louder") == .louder)
        #expect(try ConsoleCommand.parse("quieter") == .quieter)
        #expect(try ConsoleCommand.parse("rate 220") == .rate(220))
        #expect(try ConsoleCommand.parse("voice en-gb+f3") == .voice("en-gb+f3"))
        #expect(try ConsoleCommand.parse("voice Default") == .voice(nil))
        #expect(try ConsoleCommand.parse("verbosity Essential") == .verbosity(.essential))
        #expect(try ConsoleCommand.parse("  status  ") == .status)
    }

    /// `essential`: the maneuvers and arrival, not the far prompt nor a notice; `off`: nothing.
    @Test func verbosityLevels() {
        #expect(PromptKind.allCasesForTest.allSatisfy { Verbosity.all.speaks($0) && !Verbosity.off.speaks($0) })
        #expect([PromptKind.turnIn, .now, .arrive].allSatisfy { Verbosity.essential.speaks($0) })
        #expect(![PromptKind.prepare, .notice].contains { Verbosity.essential.speaks($0) })
    }

    @Test func destinationCommands() throws {
        #expect(try ConsoleCommand.parse("find hauptstr 12 heid") == .find("hauptstr 12 heid"))
        #expect(try ConsoleCommand.parse("go 2") == .goResult(2))
        #expect(try ConsoleCommand.parse("go Bismarckplatz Heidelberg") == .goText("Bismarckplatz Heidelberg"))
        #expect(try ConsoleCommand.parse("go north") == .goText("north"))
        #expect(try ConsoleCommand.parse("near fuel") == .near("fuel"))
        #expect(try ConsoleCommand.parse("near gas station") == .near("gas station"))
        #expect(try ConsoleCommand.parse("save Home") == .save(name: "home", result: nil))
        #expect(try ConsoleCommand.parse("save work 3") == .save(name: "work", result: 3))
        #expect(try ConsoleCommand.parse("home") == .home)
        #expect(try ConsoleCommand.parse("fav") == .favourite(nil))
        #expect(try ConsoleCommand.parse("fav Work") == .favourite("work"))
        #expect(try ConsoleCommand.parse("recent") == .recent)
        // a terminal's escape codes and a bell are spaces, not part of the words
        #expect(try ConsoleCommand.parse("find \u{1b}[Ahaupt\u{7}str") == .find("[Ahaupt str"))
    }

    @Test(arguments: ["", "go", "go 0", "find", "near", "save", "save a b c", "save home x", "home now", "recent 3", "fav a b", "go 1,2 via", "go 1,2 3,4", "volume 400", "volume -1", "louder 3", "rate 20", "rate", "voice", "voice a b", "verbosity loud", "mute maybe", "fly 1,2", "cancel now", "go 95,0"])
    func badCommandsSayWhatIsWrong(line: String) {
        do {
            _ = try ConsoleCommand.parse(line)
            Issue.record("accepted \(line)")
        } catch let e as ConsoleError {
            #expect(!e.message.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite struct StatusLineTests {
    @Test func freeDriveAndNoFix() {
        let free = StatusLine(state: .freeDrive, progress: nil, speedMetersPerSecond: 13.9, fixMode: .threeD, time: 0, road: "Hauptstraße")
        #expect(free.text == "[FREE DRIVE] Hauptstraße | 50 km/h | 3D")
        #expect(StatusLine.waiting("gpsd lost").text == "[NO FIX] gpsd lost")
        let mph = StatusLine(state: .arrived, progress: nil, speedMetersPerSecond: 0, fixMode: .twoD, time: 0, units: .imperial)
        #expect(mph.text == "[ARRIVED] You have arrived | 0 mph | 2D")
        // the road's limit as its sign shows it: 50 km/h, or 30 mph mapped as 48 km/h
        let limited = StatusLine(state: .freeDrive, progress: nil, speedMetersPerSecond: 14.7, fixMode: .threeD, time: 0, road: "B 37",
                                 speedLimitKmh: 50)
        #expect(limited.text == "[FREE DRIVE] B 37 | 53 km/h limit 50 | 3D")
        let uk = StatusLine(state: .freeDrive, progress: nil, speedMetersPerSecond: 13, fixMode: .threeD, time: 0, road: "A40",
                            units: .imperial, speedLimitKmh: 48.28)
        #expect(uk.text == "[FREE DRIVE] A40 | 29 mph limit 30 | 3D")
    }

    /// The lanes to take at the next maneuver, drawn where there is a choice of lanes.
    @Test func lanePicture() {
        let lanes = [Lane(indications: ["left"], valid: true), Lane(indications: ["left"], valid: true),
                     Lane(indications: ["straight"], valid: false), Lane(indications: ["straight", "right"], valid: false),
                     Lane(indications: ["none"], valid: false)]
        #expect(StatusLine.lanePicture(lanes) == "[L] [L] S S+R -")
        #expect(StatusLine.lanePicture(lanes.map { Lane(indications: $0.indications, valid: true) }) == nil)
        #expect(StatusLine.lanePicture([]) == nil)
    }
}

extension PromptKind {
    static let allCasesForTest: [PromptKind] = [.prepare, .turnIn, .now, .arrive, .notice]
}
