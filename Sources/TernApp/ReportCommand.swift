import DriveLog
import FoundationEssentials
import Glibc
import Platform

/// `tern report DRIVE_DIR -o report.html`: a logged drive as one self-contained HTML page.
enum ReportCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let (a, drive, name) = try loadDrive(args, command: "report")
        guard let out = a.value("o") ?? a.value("output") else { throw UsageError("report needs -o report.html") }
        let html = DriveReport.html(drive, title: "Tern drive \(name)")
        do { try AtomicFile.write(html, to: out) } catch { throw CommandError("\(out): \(errorText(error))") }
        printError(String(printf: "tern report: %@: %.0f KB", out, Double(html.utf8.count) / 1024))
        return 0
    }
}
