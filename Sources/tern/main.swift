import FoundationEssentials
import Glibc
import TernApp

// Unbuffered output for status lines and progress; SIGPIPE must not kill a car unit whose
// console reader went away.
signal(SIGPIPE, SIG_IGN)
exit(await TernCLI.main(Array(CommandLine.arguments.dropFirst())))
