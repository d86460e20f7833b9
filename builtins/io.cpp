// io.cpp — printing, reading, loading, files.
#include "builtins.h"

#include "../interp/printer.h"
#include "../interp/reader.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/stat.h>

namespace lipq {

struct LibSource { const char* name; const char* source; };
extern const LibSource lib_sources[];
extern const size_t lib_count;

namespace {

Value bi_prin1(Interp& I, Value* a, int) { I.out(prin1_to_string(I, a[0])); return a[0]; }
Value bi_princ(Interp& I, Value* a, int) { I.out(princ_to_string(I, a[0])); return a[0]; }
// LISP 1.6 PRINT: the readable form, then a new line.
Value bi_print(Interp& I, Value* a, int) {
    std::string s = prin1_to_string(I, a[0]);
    s += '\n';
    I.out(s);
    return a[0];
}
Value bi_terpri(Interp& I, Value*, int) { I.out("\n"); return NIL; }
Value bi_fresh_line(Interp& I, Value*, int) { if (I.out_column != 0) I.out("\n"); return NIL; }
Value bi_write_string(Interp& I, Value* a, int) { I.out(arg_string(I, "write-string", a[0])); return a[0]; }
Value bi_write_line(Interp& I, Value* a, int) {
    I.out(arg_string(I, "write-line", a[0]));
    I.out("\n");
    return a[0];
}
Value bi_prin1_to_string(Interp& I, Value* a, int) { return I.make_string(prin1_to_string(I, a[0])); }
Value bi_princ_to_string(Interp& I, Value* a, int) { return I.make_string(princ_to_string(I, a[0])); }

Value bi_read_from_string(Interp& I, Value* a, int) {
    return read_from_string(I, arg_string(I, "read-from-string", a[0]));
}

// (read): the next datum from standard input; the symbol :eof at its end.
Value bi_read(Interp& I, Value*, int) {
    for (;;) {
        // Try to parse what we have; on "unexpected end of input", read more.
        bool incomplete = false;
        if (!I.stdin_pending.empty()) {
            try {
                Reader r(I, I.stdin_pending, I.file_id("<stdin>"), false);
                Value v = r.read();
                if (v != END_OF_FILE) {
                    I.stdin_pending.erase(0, r.offset());
                    return v;
                }
                I.stdin_pending.clear();
            } catch (LispError& e) {
                if (e.message.find("unexpected end of input") == std::string::npos &&
                    e.message.find("unterminated") == std::string::npos) {
                    I.stdin_pending.clear();
                    throw;
                }
                incomplete = true;
            }
        }
        std::string line;
        if (!std::getline(std::cin, line)) {
            if (incomplete) { I.stdin_pending.clear(); I.error("read: end of input inside a datum"); }
            return I.intern(":eof");
        }
        I.stdin_pending += line;
        I.stdin_pending += '\n';
    }
}

Value bi_read_line(Interp& I, Value*, int) {
    std::string line;
    if (!I.stdin_pending.empty()) {
        size_t nl = I.stdin_pending.find('\n');
        line = I.stdin_pending.substr(0, nl);
        I.stdin_pending.erase(0, nl == std::string::npos ? nl : nl + 1);
        return I.make_string(line);
    }
    if (!std::getline(std::cin, line)) return NIL;
    return I.make_string(line);
}

bool file_exists(const std::string& p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Relative paths are tried as given, then beside the file being loaded.
std::string resolve_path(Interp& I, const std::string& p) {
    if (p.empty() || p[0] == '/' || file_exists(p) || I.load_stack.empty()) return p;
    const std::string& cur = I.load_stack.back();
    size_t slash = cur.rfind('/');
    if (slash == std::string::npos) return p;
    std::string alt = cur.substr(0, slash + 1) + p;
    return file_exists(alt) ? alt : p;
}

struct LoadFrame {
    Interp& I;
    LoadFrame(Interp& in, const std::string& f) : I(in) { I.load_stack.push_back(f); }
    ~LoadFrame() { I.load_stack.pop_back(); }
};

Value bi_load(Interp& I, Value* a, int) {
    std::string path = resolve_path(I, arg_string_designator(I, "load", a[0]));
    if (!file_exists(path) && file_exists(path + ".lisp")) path += ".lisp";
    LoadFrame f(I, path);
    I.load_file(path);
    return I.sym.t;
}

// (require 'name): load the library lib/name.lisp built into lipq, once.
Value bi_require(Interp& I, Value* a, int) {
    std::string name = arg_string_designator(I, "require", a[0]);
    Value loaded = I.intern("*modules*");
    for (Value x = I.global(loaded); is_pair(x); x = cdr(x))
        if (is_string(car(x)) && as_string(car(x))->s == name) return NIL;
    bool found = false;
    for (size_t i = 0; i < lib_count; i++) {
        if (name == lib_sources[i].name) {
            LoadFrame f(I, "lib/" + name + ".lisp");
            I.eval_string(lib_sources[i].source, "lib/" + name + ".lisp");
            found = true;
            break;
        }
    }
    if (!found) {
        std::string path = resolve_path(I, name + ".lisp");
        if (!file_exists(path)) I.error("require: no library named " + name);
        LoadFrame f(I, path);
        I.load_file(path);
    }
    Value s = I.make_string(name);
    Root sr(I, s);
    Value old = I.global(loaded);
    I.set_global(loaded, I.cons(sr, old == UNBOUND ? NIL : old));
    return I.sym.t;
}

Value bi_read_file(Interp& I, Value* a, int) {
    std::string path = resolve_path(I, arg_string(I, "read-file", a[0]));
    std::ifstream in(path, std::ios::binary);
    if (!in) I.error("read-file: cannot open " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return I.make_string(ss.str());
}

Value bi_write_file(Interp& I, Value* a, int) {
    const std::string& path = arg_string(I, "write-file", a[0]);
    std::ofstream out(path, std::ios::binary);
    if (!out) I.error("write-file: cannot open " + path);
    out << arg_string(I, "write-file", a[1]);
    if (!out) I.error("write-file: write failed: " + path);
    return a[0];
}

Value bi_file_exists(Interp& I, Value* a, int) {
    return bool_value(I, file_exists(arg_string(I, "file-exists-p", a[0])));
}

const BuiltinDef io_lib[] = {
    {"print", bi_print, 1, 1, "(print x): write x readably, then a new line (LISP 1.6); returns x."},
    {"prin1", bi_prin1, 1, 1, "(prin1 x): write x readably (strings quoted, labels for shared structure)."},
    {"princ", bi_princ, 1, 1, "(princ x): write x for people (strings without quotes)."},
    {"terpri", bi_terpri, 0, 0, "(terpri): a new line."},
    {"fresh-line", bi_fresh_line, 0, 0, "(fresh-line): a new line unless at the start of one."},
    {"write-string", bi_write_string, 1, 1, "(write-string s): write the string s."},
    {"write-line", bi_write_line, 1, 1, "(write-line s): write the string s and a new line."},
    {"prin1-to-string", bi_prin1_to_string, 1, 1, "(prin1-to-string x): what prin1 would write."},
    {"princ-to-string", bi_princ_to_string, 1, 1, "(princ-to-string x): what princ would write."},
    {"read-from-string", bi_read_from_string, 1, 1, "(read-from-string s): the first datum in s (labels included)."},
    {"read", bi_read, 0, 0, "(read): the next datum from standard input, or :eof."},
    {"read-line", bi_read_line, 0, 0, "(read-line): the next line of standard input, or nil at its end."},
    {"load", bi_load, 1, 1, "(load file): evaluate every form in the file."},
    {"require", bi_require, 1, 1, "(require 'name): load the built-in library lib/name.lisp once."},
    {"read-file", bi_read_file, 1, 1, "(read-file path): the contents of a file as a string."},
    {"write-file", bi_write_file, 2, 2, "(write-file path string): replace the file's contents."},
    {"file-exists-p", bi_file_exists, 1, 1, "(file-exists-p path): t if the file exists."},
};

} // namespace

void open_io(Interp& I) { register_builtins(I, io_lib); }

} // namespace lipq
