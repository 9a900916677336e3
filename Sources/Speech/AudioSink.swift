import CALSA
import FoundationEssentials
import Glibc

/// Where synthesized speech goes. Used only on the speech thread.
protocol AudioSink: AnyObject {
    /// Plays or stores mono S16 samples at `sampleRate`, returning when they are done (played or
    /// written) or `stop` says to stop (checked every tenth of a second of audio); returns how
    /// many samples went out.
    func play(_ samples: [Int16], sampleRate: Int, stop: () -> Bool) throws -> Int
    func close()
}

/// An ALSA PCM (a sound card, "default", "null", "file:FILE=...,FORMAT=wav", or any asoundrc name).
/// Kept open between prompts so that a file PCM collects them all; drained after each prompt.
final class ALSASink: AudioSink {
    let name: String
    private var pcm: OpaquePointer?
    private var configuredRate = 0

    init(name: String) throws {
        self.name = name
        CALSA_silence_errors()
        var handle: OpaquePointer?
        let rc = snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, 0)
        guard rc >= 0, let handle else {
            throw SpeechError.audioDevice(name: name, reason: String(cString: snd_strerror(rc)))
        }
        pcm = handle
    }

    func play(_ samples: [Int16], sampleRate: Int, stop: () -> Bool) throws -> Int {
        guard let pcm else { throw SpeechError.audioDevice(name: name, reason: "closed") }
        if configuredRate != sampleRate {
            let rc = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1, 200_000)
            guard rc >= 0 else { throw SpeechError.audioDevice(name: name, reason: String(cString: snd_strerror(rc))) }
            configuredRate = sampleRate
        } else {
            snd_pcm_prepare(pcm)
        }
        var offset = 0
        let chunk = max(1, sampleRate / 10)
        var stopped = false
        try samples.withUnsafeBufferPointer { buf in
            while offset < buf.count {
                if stop() {
                    stopped = true
                    break
                }
                let n = snd_pcm_writei(pcm, buf.baseAddress! + offset, snd_pcm_uframes_t(min(chunk, buf.count - offset)))
                if n < 0 {
                    let rec = snd_pcm_recover(pcm, Int32(n), 1)
                    if rec < 0 { throw SpeechError.audioDevice(name: name, reason: String(cString: snd_strerror(Int32(n)))) }
                    continue
                }
                offset += Int(n)
            }
        }
        if stopped {
            // what is still in the device's buffer is dropped, not played out
            snd_pcm_drop(pcm)
            return offset
        }
        snd_pcm_drain(pcm)
        return offset
    }

    func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
    }

    deinit { close() }
}

/// A RIFF/WAVE file of 16-bit mono PCM. The header's sizes are rewritten after every prompt, so
/// the file is valid even if the process stops unexpectedly.
final class WAVFileSink: AudioSink {
    let path: String
    private var fd: Int32
    private var dataBytes = 0
    private var rate = 0

    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SpeechError.file(path: path, reason: String(cString: strerror(errno))) }
    }

    func play(_ samples: [Int16], sampleRate: Int, stop: () -> Bool) throws -> Int {
        // (a file is written at once, not in real time: only a prompt stopped before it began is left out)
        if stop() { return 0 }
        if rate == 0 {
            rate = sampleRate
            try writeHeader()
        }
        let bytes = samples.map { $0.littleEndian }
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(44 + dataBytes + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SpeechError.file(path: path, reason: String(cString: strerror(errno)))
                }
                done += n
            }
        }
        dataBytes += bytes.count * 2
        try writeHeader()
        return samples.count
    }

    private func writeHeader() throws {
        var h = [UInt8]()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { h += $0 } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { h += $0 } }
        h += Array("RIFF".utf8); u32(36 + dataBytes); h += Array("WAVE".utf8)
        h += Array("fmt ".utf8); u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
        h += Array("data".utf8); u32(dataBytes)
        let n = h.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) }
        if n != h.count { throw SpeechError.file(path: path, reason: String(cString: strerror(errno))) }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1  // never twice: the number may belong to someone else by then
    }
    deinit { close() }
}
