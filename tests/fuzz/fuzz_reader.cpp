// fuzz_reader.cpp — libFuzzer target: the reader on arbitrary bytes.
//
// Every input must either read (datum after datum, until the end) or fail
// with a LispError; nothing else may happen (no crash, no other exception,
// no sanitizer report, no hang). Every datum read is also printed, both
// label styles, to exercise the printer on whatever structure the reader
// built (cycles through CL and LIPQ labels, vectors, quads).
#include "fuzz_common.h"

using namespace lipq;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Interp& I = lipq_fuzz::interp();
    std::string_view src(reinterpret_cast<const char*>(data), size);
    try {
        Reader r(I, src, I.file_id("<fuzz>"), true);
        for (int n = 0; n < 100000; n++) {
            Value v = r.read();
            if (v == END_OF_FILE) break;
            Root keep(I, v);
            PrintOptions o;
            o.max_chars = 1 << 20;
            std::string out;
            print_value(I, v, o, out);
            o.cl_labels = true;
            o.shared = false;
            out.clear();
            print_value(I, v, o, out);
        }
    } catch (LispError&) {
    }
    I.positions.clear();
    return 0;
}
