// compiler.h — from S-expressions to executable node trees.
//
// lipq does not walk raw S-expressions at run time. Each function body is
// analysed once, when it is defined, into a tree of Nodes ("closure
// compilation"): every node carries a pointer to the C++ function that runs
// it, variables are resolved to frame slots or closure-capture indices, macros
// are expanded, and calls to builtins such as car or + become nodes that do
// the work inline (after checking that the global still holds the builtin).
//
// Frames: a call's arguments and locals are consecutive slots on the
// interpreter's value stack, so the collector sees them and a call costs no
// allocation. A variable captured by an inner lambda is copied into the
// closure when the closure is made; if it is also assigned anywhere, it is
// instead kept in a Box shared by the frame and the closures. The compiler
// learns that only after compiling the variable's whole scope, so nodes that
// touch a variable are registered with it and re-pointed ("patched") to the
// boxed versions when the scope closes.
//
// Tail calls: a call in tail position evaluates its arguments and returns the
// TAILCALL marker; the closure-application loop (Interp::apply_closure) then
// reuses the frame. PROG's go/return travel as the SIGNAL marker through
// statement positions and as C++ exceptions from anywhere else.
#pragma once
#include "interp.h"

#include <memory>
#include <string>
#include <vector>

namespace lipq {

struct Frame {
    Value* slots;     // arguments then locals, on the value stack
    Closure* self;    // captured values: self->cap[i]
    Interp* I;
};

struct Node {
    using Fn = Value (*)(Node*, Frame&);
    using Test = bool (*)(Node*, Frame&);
    Fn fn;
    // Optional: the node's truth value without making t or nil (predicates,
    // not, and, or). Tests (if, while, and, or, not) use it when present.
    Test test = nullptr;
    explicit Node(Fn f) : fn(f) {}
    virtual ~Node() = default;
};

inline Value ev(Node* n, Frame& f) { return n->fn(n, f); }
inline bool ev_test(Node* n, Frame& f) { return n->test ? n->test(n, f) : truthy(n->fn(n, f)); }

// A compiled lambda: everything a closure of it shares.
struct Proto : Obj {
    std::string name;             // for backtraces: the defun's name or "lambda"
    Value source = NIL;           // (lambda-list . body), for printing and introspection
    Value name_sym = NIL;
    int nreq = 0, nopt = 0;
    bool rest = false;
    bool fexpr = false;           // DF: receives its argument forms unevaluated, as a list
    bool simple = false;          // required parameters only, none boxed, not a DF: the fast call path
    int simple_nargs = -1;        // simple ? nreq : -1 (one compare on the call path)
    int frame_size = 0;           // slots: parameters, then locals and temporaries
    Node* body = nullptr;
    Node* tree_body = nullptr;    // once compiled (jit.h), the node tree that body replaced
    std::vector<Node*> opt_defaults;        // per optional parameter; null = nil
    std::vector<int> boxed_params;          // parameters that live in a Box
    std::vector<std::unique_ptr<Node>> nodes;   // owns every node of this body
    std::vector<Value> constants;           // every Value the nodes refer to (GC roots)
    SourcePos pos;
    // The second tier (jit.h): entries counted by the tree's call path, and
    // once compiled, the direct entry point for compiled callers (it links
    // the call, counts depth, polls, runs the body and its tail calls).
    using JitEntry = Value (*)(Interp*, Value* base, const SourcePos* site);
    uint32_t calls = 0;
    uint32_t turns = 0;                     // of while and prog loops (eval.cpp, count_turn)
    // A loop turn counts a tenth of a call: TURNS_PER_CALL * threshold turns
    // set the call count to threshold - 1, so the function is compiled at its
    // next call. Until then it is "primed", and not taken along into another
    // function's GCC run (jit.cpp, batch_for): if it is never called again,
    // it costs nothing. (64-bit: times any threshold without wrapping.)
    static constexpr uint64_t TURNS_PER_CALL = 10;
    void count_turn(uint32_t threshold) {
        if (calls + 1 < threshold && ++turns == TURNS_PER_CALL * threshold) [[unlikely]] calls = threshold - 1;
    }
    bool primed_by_loops(uint32_t threshold) const {
        return calls + 1 == threshold && turns >= TURNS_PER_CALL * threshold;
    }
    uint8_t jit_state = 0;                  // 0 not tried, 1 compiled, 2 left to the tree
    JitEntry jit_entry = nullptr;
    void* jit_code = nullptr;               // owned: see jit_release
    Proto() : Obj(Type::Proto) {}
};

void trace_proto(Tracer& t, Proto* p);
void delete_proto(Proto* p);
size_t proto_bytes(Proto* p);

class Compiler {
public:
    explicit Compiler(Interp& I);
    ~Compiler();
    // Compile a top-level form into a zero-argument function.
    Value compile_toplevel(Value form);
    // (lambda-list . body) with a name, outside any lexical scope.
    Value compile_lambda(Value name, Value lambda_list, Value body, bool fexpr = false);
    Value macroexpand_1(Value form, bool* expanded);
    Value macroexpand(Value form);
    Value expand_quasiquote(Value x);
    struct Impl;
private:
    std::unique_ptr<Impl> impl_;
};

} // namespace lipq
