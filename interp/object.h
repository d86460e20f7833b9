// object.h — layouts of the heap objects that carry a header.
//
// Cons and quad cells are headerless (see value.h). Everything else starts
// with an Obj header: its type, the collector's mark bit, and the link that
// threads every such object onto the heap's object list for sweeping.
#pragma once
#include "value.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lipq {

class Interp;
struct Node;
struct Proto;
class Tracer;

using BigInt = boost::multiprecision::cpp_int;

enum class Type : uint8_t {
    Symbol, String, Vector, Bignum, Closure, Native, Proto, Box, Macro, HashTable, Foreign,
};

struct Obj {
    Type type;
    bool marked = false;
    uint16_t flags = 0;
    uint32_t aux = 0;
    Obj* next = nullptr;
    explicit Obj(Type t) : type(t) {}
};

struct Cons { Value car, cdr; };
struct Quad { Value car, cdr, cbr, ccr; };   // car/cdr first: see value.h

// ---- symbols --------------------------------------------------------------
enum SymbolFlags : uint16_t {
    SYM_CONSTANT = 1,   // nil, t, keywords: cannot be assigned or bound
    SYM_SPECIAL = 2,    // declared by defvar/defparameter: bound dynamically
    SYM_INTERNED = 4,
    SYM_KEYWORD = 8,
};

struct Symbol : Obj {
    Value value = UNBOUND;   // the global value (one namespace: functions too)
    Value plist = NIL;       // LISP 1.6 property list
    std::string name;
    explicit Symbol(std::string n) : Obj(Type::Symbol), name(std::move(n)) {}
};

struct String : Obj {
    std::string s;
    explicit String(std::string v) : Obj(Type::String), s(std::move(v)) {}
};

struct Vector : Obj {
    std::vector<Value> items;
    Vector() : Obj(Type::Vector) {}
};

struct Bignum : Obj {
    BigInt n;   // always outside the fixnum range (see number.h: normalize)
    explicit Bignum(BigInt v) : Obj(Type::Bignum), n(std::move(v)) {}
};

// A variable that is both captured by a closure and assigned lives in a Box,
// so that every closure sharing it sees the assignments.
struct Box : Obj {
    Value v;
    explicit Box(Value x) : Obj(Type::Box), v(x) {}
};

// A closure: compiled code (Proto) plus the values it captured. Its header
// flags repeat what the call path needs without loading the Proto.
enum ClosureFlags : uint16_t { CLOSURE_FEXPR = 1 };
struct Closure : Obj {
    Proto* proto;
    uint32_t ncap;
    Value cap[1];   // really ncap entries; allocated with the right size
    Closure(Proto* p, uint32_t n) : Obj(Type::Closure), proto(p), ncap(n) {}
};

using NativeFn = Value (*)(Interp&, Value* args, int nargs);

struct Native : Obj {
    const char* name;
    NativeFn fn;                          // plain builtins
    std::function<Value(Interp&, Value*, int)> lambda;   // embedding API natives
    std::string owned_name;               // when the name is not a static string
    int16_t min_args, max_args;           // max_args < 0: any number
    const char* doc;
    Native() : Obj(Type::Native), name(""), fn(nullptr), min_args(0), max_args(-1), doc("") {}
};

// A macro: its expander is an ordinary function. LISP 1.6's DM macros receive
// the whole form; defmacro macros receive the argument forms.
struct Macro : Obj {
    Value expander;
    bool whole_form;
    Macro(Value e, bool whole) : Obj(Type::Macro), expander(e), whole_form(whole) {}
};

// Hash tables keep their entries in insertion order, so iterating one (and
// printing what it holds) is deterministic.
struct HashTable : Obj {
    bool equal_keys;   // keyed by `equal` (structure) rather than `eq` (identity)
    struct Entry { Value key, value; bool live; };
    std::vector<Entry> entries;
    std::vector<int32_t> index;    // open addressing into entries; -1 empty
    size_t count = 0;
    explicit HashTable(bool eq) : Obj(Type::HashTable), equal_keys(eq) {}
};

// Native data structures defined by builtins (queues, priority queues ...).
// They tell the collector what they hold through trace().
struct Foreign : Obj {
    Foreign() : Obj(Type::Foreign) {}
    virtual ~Foreign() = default;
    virtual const char* type_name() const = 0;
    virtual void trace(Tracer&) {}
    virtual size_t byte_size() const { return sizeof(*this); }
};

// ---- typed views ------------------------------------------------------------
inline bool is_type(Value v, Type t) { return is_obj(v) && as_obj(v)->type == t; }
inline bool is_symbol(Value v) { return is_nil(v) || is_type(v, Type::Symbol); }
inline bool is_string(Value v) { return is_type(v, Type::String); }
inline bool is_vector(Value v) { return is_type(v, Type::Vector); }
inline bool is_bignum(Value v) { return is_type(v, Type::Bignum); }
inline bool is_integer(Value v) { return is_fixnum(v) || is_bignum(v); }
inline bool is_closure(Value v) { return is_type(v, Type::Closure); }
inline bool is_native(Value v) { return is_type(v, Type::Native); }
inline bool is_function(Value v) { return is_closure(v) || is_native(v); }
inline bool is_macro(Value v) { return is_type(v, Type::Macro); }
inline bool is_hashtable(Value v) { return is_type(v, Type::HashTable); }

// NIL is a symbol too, but it has no Symbol object: callers of as_symbol must
// have excluded it (Interp::symbol_name handles both).
inline Symbol* as_symbol(Value v) { return static_cast<Symbol*>(as_obj(v)); }
inline String* as_string(Value v) { return static_cast<String*>(as_obj(v)); }
inline Vector* as_vector(Value v) { return static_cast<Vector*>(as_obj(v)); }
inline Bignum* as_bignum(Value v) { return static_cast<Bignum*>(as_obj(v)); }
inline Closure* as_closure(Value v) { return static_cast<Closure*>(as_obj(v)); }
inline Native* as_native(Value v) { return static_cast<Native*>(as_obj(v)); }
inline Macro* as_macro(Value v) { return static_cast<Macro*>(as_obj(v)); }
inline Box* as_box(Value v) { return static_cast<Box*>(as_obj(v)); }
inline HashTable* as_hashtable(Value v) { return static_cast<HashTable*>(as_obj(v)); }
inline Foreign* as_foreign(Value v) { return static_cast<Foreign*>(as_obj(v)); }

} // namespace lipq
