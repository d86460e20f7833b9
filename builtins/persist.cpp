// persist.cpp — saving results: (save "file" obj) and (restore "file").
//
// A save file is text: a header line, the object as prin1 writes it with
// *print-shared* t (every object reached twice is labelled, so cycles and
// sharing survive), and an end line:
//
//     ;; lipq save 1
//     ($1:a b c . $1)
//     ;; end
//
// Lists, quad cells, vectors, symbols, integers and strings are written as
// the printer writes them; hash tables (which have no printed syntax) are
// written as a vector #(%saved-hash-table eq|equal k1 v1 k2 v2 ...) and
// rebuilt by restore, keeping their identity (a table reached twice is one
// table again). Functions and native objects cannot be saved (an error).
//
// Writing is atomic: the text goes to a temporary file in the same directory,
// which is flushed to disk (fsync) and then renamed over the target. A save
// that is interrupted, fails or is killed leaves the previous file as it was;
// restore checks the header and the end line, so a file cut short by anything
// else is an error, never a partial value.
#include "builtins.h"
#include "../interp/printer.h"
#include "../interp/reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace lipq {

Value hash_get(HashTable* t, Value k, Value deflt);   // builtins/hash.cpp
void hash_put(Interp& I, HashTable* t, Value k, Value v);

namespace {

const char* const kHeader = ";; lipq save 1\n";
const char* const kEnd = ";; end\n";
const char* const kTableMarker = "%saved-hash-table";

bool is_node(Value v) { return is_pair(v) || is_vector(v) || is_hashtable(v); }

// Every node (pair, vector, hash table) reachable from root, each once.
// Errors on objects that have no readable printed form.
std::vector<Value> reachable_nodes(Interp& I, Value root, bool* has_tables) {
    std::vector<Value> nodes, work{root};
    std::unordered_map<uint64_t, bool> seen;
    *has_tables = false;
    while (!work.empty()) {
        Value v = work.back();
        work.pop_back();
        if (!is_heap(v)) continue;
        if (!is_node(v)) {
            if (is_symbol(v) && !(as_obj(v)->flags & SYM_INTERNED))
                I.error("save: cannot save an uninterned symbol: " + I.describe(v));
            if (is_symbol(v) || is_string(v) || is_bignum(v)) continue;
            I.error("save: cannot save " + I.describe(v) +
                    " (lists, quads, vectors, hash tables, symbols, strings and integers can be saved)");
        }
        if (!seen.emplace(v.raw, true).second) continue;
        nodes.push_back(v);
        if (is_pair(v)) {
            int n = is_quad(v) ? 4 : 2;
            for (int i = 0; i < n; i++) work.push_back(pair_words(v)[i]);
        } else if (is_vector(v)) {
            for (Value x : as_vector(v)->items) work.push_back(x);
        } else {
            *has_tables = true;
            for (auto& e : as_hashtable(v)->entries)
                if (e.live) { work.push_back(e.key); work.push_back(e.value); }
        }
        if ((nodes.size() & 0xffff) == 0) I.poll();
    }
    return nodes;
}

// A copy of the graph in which every hash table is replaced by its vector
// form. Collection is inhibited while the copy is half built.
Value encode_tables(Interp& I, Value root, const std::vector<Value>& nodes) {
    GcInhibit no_gc(I.heap);
    Value marker = I.intern(kTableMarker);
    Value eq_sym = I.intern("eq"), equal_sym = I.intern("equal");
    std::unordered_map<uint64_t, Value> copy;
    for (Value v : nodes) {
        Value c;
        if (is_cons(v)) c = I.cons(NIL, NIL);
        else if (is_quad(v)) c = I.quad(NIL, NIL, NIL, NIL);
        else if (is_vector(v)) c = I.make_vector(as_vector(v)->items.size(), NIL);
        else c = I.make_vector(2 + 2 * as_hashtable(v)->count, NIL);
        copy[v.raw] = c;
    }
    auto map = [&](Value x) {
        auto it = copy.find(x.raw);
        return it == copy.end() ? x : it->second;
    };
    for (Value v : nodes) {
        Value c = copy[v.raw];
        if (is_pair(v)) {
            int n = is_quad(v) ? 4 : 2;
            for (int i = 0; i < n; i++) pair_words(c)[i] = map(pair_words(v)[i]);
        } else if (is_vector(v)) {
            auto& from = as_vector(v)->items;
            auto& to = as_vector(c)->items;
            for (size_t i = 0; i < from.size(); i++) to[i] = map(from[i]);
        } else {
            HashTable* h = as_hashtable(v);
            auto& to = as_vector(c)->items;
            to[0] = marker;
            to[1] = h->equal_keys ? equal_sym : eq_sym;
            size_t k = 2;
            for (auto& e : h->entries) {
                if (!e.live || k + 1 >= to.size()) continue;
                to[k++] = map(e.key);
                to[k++] = map(e.value);
            }
        }
    }
    return map(root);
}

// The inverse: vectors in the hash-table form become hash tables again.
Value decode_tables(Interp& I, Value root) {
    GcInhibit no_gc(I.heap);
    Value marker = I.intern(kTableMarker);
    Value equal_sym = I.intern("equal");
    std::vector<Value> nodes, work{root};
    std::unordered_map<uint64_t, Value> table_of;
    std::unordered_map<uint64_t, bool> seen;
    while (!work.empty()) {
        Value v = work.back();
        work.pop_back();
        if (!is_pair(v) && !is_vector(v)) continue;
        if (!seen.emplace(v.raw, true).second) continue;
        nodes.push_back(v);
        if (is_pair(v)) {
            int n = is_quad(v) ? 4 : 2;
            for (int i = 0; i < n; i++) work.push_back(pair_words(v)[i]);
        } else {
            auto& items = as_vector(v)->items;
            if (items.size() >= 2 && items.size() % 2 == 0 && items[0] == marker) {
                bool equal = items[1] == equal_sym;
                table_of[v.raw] = obj_value(I.heap.make<HashTable>(equal));
            }
            for (Value x : items) work.push_back(x);
        }
    }
    if (table_of.empty()) return root;
    auto map = [&](Value x) {
        auto it = table_of.find(x.raw);
        return it == table_of.end() ? x : it->second;
    };
    for (Value v : nodes) {
        if (is_pair(v)) {
            int n = is_quad(v) ? 4 : 2;
            for (int i = 0; i < n; i++) pair_words(v)[i] = map(pair_words(v)[i]);
        } else {
            for (Value& x : as_vector(v)->items) x = map(x);
        }
    }
    // Fill the tables once every key is complete (equal tables hash contents).
    for (auto& [vec, table] : table_of) {
        auto& items = as_vector(Value(vec))->items;
        for (size_t k = 2; k + 1 < items.size(); k += 2) hash_put(I, as_hashtable(table), items[k], items[k + 1]);
    }
    return map(root);
}

std::string errno_text() { return std::strerror(errno); }

bool write_all(int fd, const std::string& s) {
    size_t done = 0;
    while (done < s.size()) {
        ssize_t w = ::write(fd, s.data() + done, s.size() - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += size_t(w);
    }
    return true;
}

// Removes the temporary file unless it was renamed into place.
struct TempFile {
    std::string path;
    int fd = -1;
    bool done = false;
    ~TempFile() {
        if (fd >= 0) ::close(fd);
        if (!done && !path.empty()) ::unlink(path.c_str());
    }
};

std::atomic<uint64_t> temp_counter{0};

void write_atomically(Interp& I, const std::string& path, const std::string& text) {
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    if (base.empty()) I.error("save: not a file name: " + path);
    TempFile tmp;
    tmp.path = (dir == "." && slash == std::string::npos ? "" : dir + "/") + "." + base + ".tmp-" +
               std::to_string(::getpid()) + "-" + std::to_string(temp_counter++);
    tmp.fd = ::open(tmp.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (tmp.fd < 0) {
        tmp.path.clear();
        I.error("save: cannot create a file in " + dir + ": " + errno_text());
    }
    if (!write_all(tmp.fd, text)) I.error("save: cannot write " + path + ": " + errno_text());
    if (::fsync(tmp.fd) != 0) I.error("save: cannot write " + path + ": " + errno_text());
    int fd = tmp.fd;
    tmp.fd = -1;
    if (::close(fd) != 0) I.error("save: cannot write " + path + ": " + errno_text());
    if (::rename(tmp.path.c_str(), path.c_str()) != 0) I.error("save: cannot replace " + path + ": " + errno_text());
    tmp.done = true;
    // Make the rename itself durable.
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
}

Value bi_save(Interp& I, Value* a, int) {
    std::string path = arg_string(I, "save", a[0]);
    bool has_tables = false;
    std::vector<Value> nodes = reachable_nodes(I, a[1], &has_tables);
    Root obj(I, a[1]);
    if (has_tables) obj = encode_tables(I, a[1], nodes);
    nodes.clear();
    PrintOptions o;   // readable, every shared object labelled, no limits
    o.escape = true;
    o.shared = true;
    o.cl_labels = false;
    o.base = 10;
    o.pretty = false;
    std::string text = kHeader;
    print_value(I, obj, o, text);
    text += "\n";
    text += kEnd;
    I.poll();   // an interrupt that came while printing stops here, before the file is touched
    write_atomically(I, path, text);
    return a[0];
}

Value bi_restore(Interp& I, Value* a, int) {
    std::string path = arg_string(I, "restore", a[0]);
    std::ifstream in(path, std::ios::binary);
    if (!in) I.error("restore: cannot open file: " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    size_t hl = std::strlen(kHeader);
    if (text.compare(0, hl, kHeader) != 0) I.error("restore: not a lipq save file: " + path);
    size_t el = std::strlen(kEnd);
    if (text.size() < hl + el || text.compare(text.size() - el, el, kEnd) != 0)
        I.error("restore: " + path + " is truncated (no end line)");
    std::string_view body(text.data() + hl, text.size() - hl - el);
    Value v;
    {
        Reader r(I, body, I.file_id(path), false);
        try {
            v = r.read();
        } catch (LispError& e) {
            I.error("restore: " + path + " is corrupt: " + e.message);
        }
        if (v == END_OF_FILE) I.error("restore: " + path + " holds no value");
        Root keep(I, v);
        Value more = NIL;
        try {
            more = r.read();
        } catch (LispError&) {
        }
        if (more != END_OF_FILE) I.error("restore: " + path + " is corrupt: more than one value");
    }
    Root keep(I, v);
    return decode_tables(I, v);
}

Value bi_delete_file(Interp& I, Value* a, int) {
    std::string path = arg_string(I, "delete-file", a[0]);
    if (::unlink(path.c_str()) == 0) return I.sym.t;
    if (errno == ENOENT) return NIL;
    I.error("delete-file: cannot delete " + path + ": " + errno_text());
}

const BuiltinDef persist_lib[] = {
    {"save", bi_save, 2, 2,
     "(save file obj): write obj (any structure of lists, quads, vectors, hash tables, symbols, "
     "strings and integers; cycles and sharing included) to file, atomically; returns file."},
    {"restore", bi_restore, 1, 1, "(restore file): the object saved in file by save."},
    {"delete-file", bi_delete_file, 1, 1, "(delete-file file): remove file; t if it existed, nil if not."},
};

} // namespace

void open_persist(Interp& I) { register_builtins(I, persist_lib); }

} // namespace lipq
