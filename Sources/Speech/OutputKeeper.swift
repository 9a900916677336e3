import FoundationEssentials
import Glibc

/// The audio output of the speech thread, kept through a car's life: a USB speaker plugged in
/// after start-up, pulled out mid-drive, or a card that is slow to appear at boot. It is opened
/// when first needed; while it cannot be used it is tried again every `retrySeconds` (and before
/// each prompt), so speech comes back on its own. With several outputs in order of preference
/// (`usbspeaker jack`), the first that opens is used, and a preferred one that appears later
/// takes over between prompts. Each outage is reported once, and so is each recovery, when a
/// prompt has played again (some PCMs, a file or a plug over a vanished card, open and fail only
/// when written to). Used only on the speech thread.
struct OutputKeeper {
    enum Target: Equatable {
        case alsa(String)
        case wav(String)
        var name: String {
            switch self {
            case .alsa(let n): return n
            case .wav(let p): return p
            }
        }
    }

    let targets: [Target]
    let retrySeconds: Double
    private(set) var sink: AudioSink?
    /// Which target `sink` plays to.
    private(set) var current: Int?
    private var lastTry = -Double.infinity
    /// An outage has been reported and not yet its end.
    private var down = false
    /// The next prompt played is on a new output: say so then.
    private var announce = false

    init(_ output: SpeechOutput, retrySeconds: Double) {
        switch output {
        case .device(let name): targets = [.alsa(name)]
        case .devices(let names): targets = names.map { .alsa($0) }
        case .wavFile(let path): targets = [.wav(path)]
        case .none: targets = []
        }
        self.retrySeconds = retrySeconds
    }

    /// The sink to play a prompt on: the open one, or one opened now; nil while none opens
    /// (`events` then has the outage, once).
    mutating func sinkForPrompt(now: Double, events: inout [SpeechEvent]) -> AudioSink? {
        if sink == nil { tryOpen(before: targets.count, now: now, events: &events) }
        return sink
    }

    /// Between prompts: every `retrySeconds`, try again to open an output when none is open, or
    /// a preferred one while a later one plays.
    mutating func poll(now: Double, events: inout [SpeechEvent]) {
        guard now - lastTry >= retrySeconds else { return }
        let better = current ?? targets.count
        if better > 0 { tryOpen(before: better, now: now, events: &events) }
    }

    /// The sink failed while playing (the device was unplugged): closed, reported, and tried
    /// again from the next prompt or poll.
    mutating func lost(_ error: Error, now: Double, events: inout [SpeechEvent]) {
        sink?.close()
        sink = nil
        current = nil
        announce = false
        lastTry = now
        if !down {
            down = true
            events.append(.outputUnavailable("\(error); guidance continues without speech, trying again every \(Int(retrySeconds)) s"))
        }
    }

    /// Tries the targets before index `limit`, in order; the first that opens replaces the
    /// current sink.
    private mutating func tryOpen(before limit: Int, now: Double, events: inout [SpeechEvent]) {
        lastTry = now
        var problems = [String]()
        for i in 0..<min(limit, targets.count) {
            do {
                let opened: AudioSink
                switch targets[i] {
                case .alsa(let name): opened = try ALSASink(name: name)
                case .wav(let path): opened = try WAVFileSink(path: path)
                }
                sink?.close()
                sink = opened
                if down || current != nil { announce = true }
                current = i
                return
            } catch {
                problems.append("\(error)")
            }
        }
        if sink == nil, !down, !problems.isEmpty {
            down = true
            events.append(.outputUnavailable(problems.joined(separator: "; ")
                                             + "; guidance continues without speech, trying again every \(Int(retrySeconds)) s"))
        }
    }

    /// A prompt played to the end: an outage is over, a new output is in use.
    mutating func played(events: inout [SpeechEvent]) {
        guard announce, let i = current else { return }
        announce = false
        down = false
        events.append(.outputAvailable(targets[i].name))
    }

    mutating func close() {
        sink?.close()
        sink = nil
        current = nil
    }
}
