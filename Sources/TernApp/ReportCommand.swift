import DriveLog
import Foundation

/// `tern report DRIVE_DIR -o report.html`: a logged drive as one self-contained HTML page.
enum ReportCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["o", "output"], switches: [])
        guard a.positional.count == 1 else { throw UsageError("report takes one drive folder (in log-dir, e.g. /var/lib/tern/drives/20261207T081502Z)") }
        guard let out = a.value("o") ?? a.value("output") else { throw UsageError("report needs -o report.html") }
        let drive: DriveFolder
        do { drive = try DriveFolder(path: a.positional[0]) } catch { throw CommandError("\(error)") }
        let name = (a.positional[0] as NSString).lastPathComponent
        let html = DriveReport.html(drive, title: "Tern drive \(name)")
        do { try html.write(toFile: out, atomically: true, encoding: .utf8) } catch { throw CommandError("\(out): \(error.localizedDescription)") }
        if drive.tornLines > 0 { printError("tern report: \(drive.tornLines) line(s) torn by a power cut left out") }
        printError(String(format: "tern report: %@: %.0f KB", out, Double(html.utf8.count) / 1024))
        return 0
    }
}
