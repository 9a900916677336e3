import Foundation

/// Whether this test process runs under a sanitizer (scripts/sanitize.sh): its allocator is the
/// sanitizer's, not glibc's, so a test of glibc's allocator itself has nothing to test there.
public enum Sanitizers {
    public static var address: Bool { dlsym(nil, "__asan_init") != nil }
    public static var thread: Bool { dlsym(nil, "__tsan_init") != nil }
    public static var any: Bool { address || thread }
}
