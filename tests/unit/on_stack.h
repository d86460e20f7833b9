// on_stack.h — run a test's body on a thread with a stack of a given size:
// lipq's own evaluation thread has 512 MiB, an embedder's thread may have
// far less, and doctest's thread has whatever the process got.
#pragma once
#include <doctest/doctest.h>

#include <cstddef>
#include <functional>
#include <pthread.h>

// Runs body on a new thread with a `bytes` stack and waits for it. body must
// not throw (catch inside, and report through what it captures).
inline void run_on_stack(size_t bytes, const std::function<void()>& body) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, bytes);
    auto run = [](void* p) -> void* {
        (*static_cast<const std::function<void()>*>(p))();
        return nullptr;
    };
    pthread_t th;
    int rc = pthread_create(&th, &attr, run, const_cast<std::function<void()>*>(&body));
    pthread_attr_destroy(&attr);
    REQUIRE(rc == 0);
    pthread_join(th, nullptr);
}
