import DriveLog
import FoundationEssentials
import Glibc
import Platform

/// `tern gpx DRIVE_DIR [-o F.gpx]`: a logged drive as GPX 1.1 (standard output without -o).
enum GPXCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let (a, drive, name) = try loadDrive(args, command: "gpx")
        let text = GPXWriter.gpx(drive, name: "Tern drive \(name)")
        guard let out = a.value("o") ?? a.value("output") else {
            printOut(String(text.dropLast()))  // (printOut ends the line)
            return 0
        }
        do { try AtomicFile.write(text, to: out) } catch { throw CommandError("\(out): \(errorText(error))") }
        printError("tern gpx: \(out): \(drive.raw.count) receiver fixes, \(drive.track.count) track points, \(drive.events.count) events")
        return 0
    }
}

/// The drive folder `tern gpx` and `tern report` read: the arguments, the drive and its name; a
/// torn line is said once.
func loadDrive(_ args: [String], command: String) throws -> (Arguments, DriveFolder, String) {
    let a = try Arguments(args, valued: ["o", "output"], switches: [])
    guard a.positional.count == 1 else { throw UsageError("\(command) takes one drive folder (in log-dir, e.g. /var/lib/tern/drives/20261207T081502Z)") }
    let drive: DriveFolder
    do { drive = try DriveFolder(path: a.positional[0]) } catch { throw CommandError("\(error)") }
    if drive.tornLines > 0 { printError("tern \(command): \(drive.tornLines) line(s) torn by a power cut left out") }
    return (a, drive, Paths.fileName(a.positional[0]))
}
