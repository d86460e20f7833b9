// make_seeds.cpp — seed corpus for the fuzz targets: every top-level form of
// the given Lisp files, one per corpus file, plus each whole file (its first
// 8 KiB). Forms are found with lipq's own reader, so strings, comments and
// labels split correctly.
//   make_seeds OUTDIR FILE...
#include "interp/interp.h"
#include "interp/reader.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

using namespace lipq;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: make_seeds OUTDIR FILE...\n");
        return 2;
    }
    std::string out = argv[1];
    Interp I;
    int n = 0;
    auto write = [&](const std::string& text) {
        std::ofstream f(out + "/seed-" + std::to_string(n++) + ".lisp", std::ios::binary);
        f << text;
    };
    for (int i = 2; i < argc; i++) {
        std::ifstream in(argv[i], std::ios::binary);
        if (!in) continue;
        std::stringstream ss;
        ss << in.rdbuf();
        std::string src = ss.str();
        write(src.substr(0, 8192));
        Reader r(I, src, I.file_id(argv[i]), false);
        size_t start = 0;
        try {
            for (;;) {
                Value v = r.read();
                if (v == END_OF_FILE) break;
                size_t end = r.offset();
                std::string form = src.substr(start, end - start);
                start = end;
                size_t b = form.find_first_not_of(" \t\r\n");
                if (b == std::string::npos || form.size() > 8192) continue;
                write(form);
            }
        } catch (LispError& e) {
            std::fprintf(stderr, "%s: %s (seeding the rest as one piece)\n", argv[i], e.message.c_str());
            write(src.substr(start, 8192));
        }
    }
    std::printf("%d seeds in %s\n", n, out.c_str());
    return 0;
}
