// asan_unwind.cpp — sanitizer builds only (LIPQ_SANITIZE): clean up the
// stack after an exception thrown from a very deep recursion.
//
// Why: an AddressSanitizer-instrumented frame poisons the redzones around its
// locals on entry and unpoisons them on return. A frame left by an exception
// never returns, so before every throw ASan's __asan_handle_no_return
// unpoisons the whole stack in use (from the thrower to the top of the
// thread's stack). It refuses to when that is more than 64 MiB
// (kMaxExpectedCleanupSize in compiler-rt/libsanitizer; it prints "WARNING:
// ASan is ignoring requested __asan_handle_no_return ... False positive error
// reports may follow", see https://github.com/google/sanitizers/issues/189).
// lipq evaluates on a 512 MiB thread, so a "stack depth exceeded" error (or
// an interrupt, or any error) thrown 100 MiB deep left the redzones of the
// abandoned frames poisoned; the next deep recursion over the same addresses
// was reported as a stack-buffer-overflow in a correct frame (clang 14:
// compile_pair; GCC 12: inside the sigaltstack interceptor that
// __asan_handle_no_return itself calls).
//
// The fix does what __asan_handle_no_return would have done, for any size:
// the link wraps __cxa_throw and __cxa_rethrow (-Wl,--wrap, CMakeLists.txt),
// and the wrapper unpoisons [stack pointer, top of this thread's stack)
// before throwing when that is beyond ASan's 64 MiB. Nothing in it is a
// live object's redzone below the thrower, and above it ASan does the same.
// Throws from inside the prebuilt libstdc++ are not wrapped; lipq does not
// rely on them from deep recursion.
#if defined(LIPQ_ASAN_WRAP_THROW)
#include <pthread.h>
#include <sanitizer/asan_interface.h>

#include <cstddef>
#include <cstdint>

extern "C" {
[[noreturn]] void __real___cxa_throw(void* obj, void* tinfo, void (*dest)(void*));
[[noreturn]] void __real___cxa_rethrow();
}

namespace {

thread_local uintptr_t stack_top = 0;   // one past the highest address of this thread's stack

void unpoison_abandoned_stack() {
    char here;
    if (!stack_top) {
        pthread_attr_t attr;
        void* addr = nullptr;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
        pthread_attr_getstack(&attr, &addr, &size);
        pthread_attr_destroy(&attr);
        stack_top = reinterpret_cast<uintptr_t>(addr) + size;
    }
    uintptr_t sp = reinterpret_cast<uintptr_t>(&here) & ~uintptr_t(4095);
    // ASan handles up to 64 MiB itself; leave those to it.
    if (stack_top <= sp || stack_top - sp <= (uintptr_t(64) << 20)) return;
    __asan_unpoison_memory_region(reinterpret_cast<void*>(sp), stack_top - sp);
}

} // namespace

extern "C" {
[[noreturn]] void __wrap___cxa_throw(void* obj, void* tinfo, void (*dest)(void*)) {
    unpoison_abandoned_stack();
    __real___cxa_throw(obj, tinfo, dest);
}
[[noreturn]] void __wrap___cxa_rethrow() {
    unpoison_abandoned_stack();
    __real___cxa_rethrow();
}
}
#endif

#if defined(LIPQ_ASAN_WRAP_THROW)
// libgccjit (the JIT, interp/jit.cpp) keeps compiler state it never frees;
// LeakSanitizer would report it at every exit of a process that compiled.
extern "C" const char* __lsan_default_suppressions() { return "leak:libgccjit.so\n"; }
#endif
