/*
 * pathconfig/speedups: PathConfiguration#properties's call into the library
 * and the typed readers, in C. Optional: the gem works without it
 * (Pathconfig::SPEEDUPS says which is in use; PATHCONFIG_PURE_RUBY=1 turns
 * it off), and `gem install` leaves it out, with a warning, where Ruby's
 * headers or a C compiler are missing (extconf.rb).
 *
 * Through ffi, one lookup is three foreign calls (pathconfig_resolve,
 * pathconfig_result_id, and pathconfig_result_release when the answer is
 * known), each costing about as much as the library's lookup at ten rules.
 * Here the three are one C function, lookup(): it resolves, reads the
 * answer's id and looks it up in its front (struct slot), then in the gem's
 * Hash of answers (Pathconfig::Properties.answers). For a known id it
 * releases the result itself and returns the Properties the gem keeps for
 * that answer, so a lookup whose answer was seen before allocates nothing.
 * For a new id it hands the result to the gem (Properties.adopt), which
 * makes and keeps its Properties. typed_string() and typed_bool() are the
 * typed readers the gem calls the first time an answer's typed key is read
 * (it keeps the value on the Properties); the typed accessors of Properties
 * (define_accessors) read the kept value, from the front for the answer
 * lookup() gave last, and its raw getters (define_raw_getters) the values
 * the gem kept of the keys read before.
 *
 * The front and the accessors buy, at 100 rules, 12% of the instructions
 * of a lookup and its two typed reads (2,245 against 2,559, callgrind of
 * bench/corpora/rules-100.json's first 400 URLs), 8% of a lookup alone:
 * Ruby keeps a Hash's instance variables in a global table, and each
 * attr_reader searched it.
 *
 * PathConfiguration#properties itself is properties() here
 * (define_properties): at ten rules the Ruby method around lookup() cost
 * about as much as the library's lookup. It takes (url) and (url, method:)
 * on the address the configuration's struct holds (struct lookup_target),
 * and hands everything else to the gem's Ruby method (an argument lookup()
 * does not take as is, other arguments, a closed configuration, rules with
 * Ruby callbacks: then the address is NULL), which checks, converts and
 * raises as it always did.
 *
 * It never links libpathconfig: bind() receives the addresses of the
 * functions it calls from the library ffi loaded (FFI::DynamicLibrary), so
 * both paths always use the same library. It decides nothing the library or
 * the gem decides: an argument it does not take as is (not a String, an
 * encoding other than UTF-8 or US-ASCII, text not valid in it, a NUL) is
 * left to the gem's own checks, and a failure is only reported (false or
 * nil): the gem reads why from pathconfig_last_error and raises.
 *
 * With it, a rule's predicate and configurer are called through the
 * trampolines below, which stop what the gem's Ruby cannot rescue (a throw,
 * Thread#kill) before it unwinds through the library.
 *
 * The GVL is held throughout, as ffi holds it for these calls: a lookup
 * takes well under a microsecond at a few hundred rules, less than giving
 * the GVL up and taking it back. A rule's Ruby callback, run by the library
 * inside pathconfig_resolve on this thread, runs at once (ffi sees that the
 * thread holds the GVL); the gem keeps its exceptions out of C.
 */

#include <ruby.h>
#include <ruby/encoding.h>
#include <ruby/thread.h>

#include <stdint.h>
#include <string.h>

/* The library's functions (pathconfig/config.h, result.h, common.h), with
 * handles as void *. pathconfig_last_error's struct starts with its code. */
typedef void *(*resolve_fn)(const void *cfg, const char *url_or_path, const char *method, void *err);
typedef uint64_t (*id_fn)(const void *res);
typedef void (*release_fn)(void *res);
typedef const char *(*typed_string_fn)(const void *res, int key);
typedef int (*typed_bool_fn)(const void *res, int key);
typedef const int *(*last_error_fn)(void);
typedef int (*request_fail_fn)(void *request, const char *message);

static resolve_fn pc_resolve;
static id_fn pc_result_id;
static release_fn pc_result_release;
static typed_string_fn pc_typed_string;
static typed_bool_fn pc_typed_bool;
static last_error_fn pc_last_error;
static request_fail_fn pc_request_fail;
static VALUE own_pointer(void *pointer, release_fn release); /* Owned, below */
static release_fn pc_release;     /* pathconfig_release */
static release_fn pc_string_free; /* pathconfig_string_free */

/* The gem's Hash of answers by id, and the class whose adopt(owned, id)
 * makes the Properties of a new answer (owned: the Owned of its result). */
static VALUE answers = Qnil;
static VALUE properties_class = Qnil;
static ID id_adopt;

/* properties(): the module whose last_error it raises, the method keyword
 * it takes, and the gem's Ruby method it hands the rest to
 * (define_properties). */
static VALUE pathconfig_module = Qnil;
static ID id_last_error, id_checked;
static VALUE sym_method = Qnil;
static int utf8_index, usascii_index;

/* The answers lookup() gave lately, by id: a direct-mapped front of the
 * gem's Hash of answers (an id's slot is id % SLOTS), each with the typed
 * values its accessors have read (Qundef until then). `last` is the slot of
 * the answer lookup() gave last: a typed accessor called on that answer, as
 * a host calls it right after the lookup, reads its value here instead of
 * in the answer's instance variable, which Ruby keeps for a Hash in a
 * global table (define_accessors). An answer the Hash drops can stay in its
 * slot until another id takes it: still a whole answer of that id.
 *
 * The slots' answers and values are marked, and so pinned (a compacting GC
 * moves none of them), by front_mark: the mark function of a GC root
 * (Init_speedups) without write barriers, which Ruby marks in every minor
 * GC too. */
#define SLOTS 1024
#define MAX_ACCESSORS 16
struct slot {
    uint64_t id; /* 0: empty (an answer's id is never 0) */
    VALUE props;
    VALUE typed[MAX_ACCESSORS];
};
static struct slot slots[SLOTS];
static struct slot *last;
static ID accessor_ivars[MAX_ACCESSORS];
static int accessor_count;

static void front_mark(void *data) {
    (void)data;
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].id == 0) continue;
        rb_gc_mark(slots[i].props);
        for (int k = 0; k < accessor_count; k++) {
            if (slots[i].typed[k] != Qundef) rb_gc_mark(slots[i].typed[k]);
        }
    }
}

static const rb_data_type_t front_type = {
    .wrap_struct_name = "pathconfig/speedups answers front",
    .function = {.dmark = front_mark},
};


static void *address_of(VALUE number) {
    return (void *)(uintptr_t)NUM2ULL(number);
}

/* The bytes of `text` as a NUL-terminated C string, or NULL when this path
 * does not take it as is: not a String, not UTF-8 or US-ASCII, not valid
 * in its encoding, or holding a NUL (which C would read as its end). A
 * String whose bytes are not followed by a NUL (a shared substring) is
 * copied into *copy. */
static const char *text_as_is(VALUE text, VALUE *copy) {
    if (!RB_TYPE_P(text, T_STRING)) return NULL;
    /* The index kept in the String's flags (an encoding past the inlined
     * ones reads as ENCODING_INLINE_MAX: neither of these), and the
     * String's cached coderange, scanned only when it is not yet known. */
    int encoding = RB_ENCODING_GET_INLINED(text);
    if (encoding != utf8_index && encoding != usascii_index) return NULL;
    int coderange = RB_ENC_CODERANGE(text);
    if (coderange == RUBY_ENC_CODERANGE_UNKNOWN) coderange = rb_enc_str_coderange(text);
    if (coderange == RUBY_ENC_CODERANGE_BROKEN) return NULL;
    const char *bytes = RSTRING_PTR(text);
    long size = RSTRING_LEN(text);
    if (memchr(bytes, 0, (size_t)size) != NULL) return NULL;
    if (bytes[size] != '\0') {
        *copy = rb_str_new(bytes, size);
        return RSTRING_PTR(*copy);
    }
    return bytes;
}

static int last_code(void) {
    const int *error = pc_last_error();
    return error == NULL ? 0 : *error;
}

/*
 * call-seq: Pathconfig::Speedups.bind(functions, answers, properties_class) -> nil
 *
 * functions: a Hash of the addresses (Integers) of pathconfig_resolve,
 * pathconfig_result_id, pathconfig_result_release,
 * pathconfig_result_typed_string, pathconfig_result_typed_bool,
 * pathconfig_last_error and pathconfig_request_fail in the library ffi
 * loaded, by those names. answers:
 * the gem's Hash of Properties by answer id. properties_class: the class
 * whose adopt(address, id) makes a new answer's Properties. Called once,
 * before the other functions.
 */
static VALUE sp_bind(VALUE self, VALUE functions, VALUE answers_hash, VALUE klass) {
    (void)self;
    static const char *const names[] = {
        "pathconfig_resolve", "pathconfig_result_id", "pathconfig_result_release",
        "pathconfig_result_typed_string", "pathconfig_result_typed_bool", "pathconfig_last_error",
        "pathconfig_request_fail", "pathconfig_release", "pathconfig_string_free",
    };
    void *addresses[9];
    Check_Type(functions, T_HASH);
    Check_Type(answers_hash, T_HASH);
    Check_Type(klass, T_CLASS);
    for (int i = 0; i < 9; i++) {
        VALUE address = rb_hash_lookup2(functions, rb_str_new_cstr(names[i]), Qnil);
        if (NIL_P(address)) rb_raise(rb_eArgError, "bind: no address for %s", names[i]);
        addresses[i] = address_of(address);
        if (addresses[i] == NULL) rb_raise(rb_eArgError, "bind: the address of %s is 0", names[i]);
    }
    pc_resolve = (resolve_fn)addresses[0];
    pc_result_id = (id_fn)addresses[1];
    pc_result_release = (release_fn)addresses[2];
    pc_typed_string = (typed_string_fn)addresses[3];
    pc_typed_bool = (typed_bool_fn)addresses[4];
    pc_last_error = (last_error_fn)addresses[5];
    pc_request_fail = (request_fail_fn)addresses[6];
    pc_release = (release_fn)addresses[7];
    pc_string_free = (release_fn)addresses[8];
    answers = answers_hash;
    properties_class = klass;
    /* The front is of the answers it was given: empty it. */
    memset(slots, 0, sizeof slots);
    last = NULL;
    return Qnil;
}

static void check_bound(void) {
    if (pc_resolve == NULL) rb_raise(rb_eRuntimeError, "Pathconfig::Speedups: bind was not called");
}

/*
 * call-seq: Pathconfig::Speedups.lookup(config, url, method) -> Properties, false or nil
 *
 * pathconfig_resolve(config, url, method, NULL) for the configuration at
 * address config (which the caller holds), url a String and method a String
 * or nil (GET). Then, by the result's id: the kept Properties when the id
 * is a key of the answers (the result is released here), else
 * properties_class.adopt(owned, id), owned the Owned of the result, which
 * the Properties keeps.
 * false when the lookup failed (pathconfig_last_error says why); nil when
 * url or method is not one this path takes as is (the gem's own path then
 * checks it).
 */
static VALUE lookup(void *cfg, VALUE url, VALUE method) {
    VALUE url_copy = Qnil, method_copy = Qnil;
    const char *c_url = text_as_is(url, &url_copy);
    if (c_url == NULL) return Qnil;
    const char *c_method = NULL;
    if (!NIL_P(method) && (c_method = text_as_is(method, &method_copy)) == NULL) return Qnil;

    void *res = pc_resolve(cfg, c_url, c_method, NULL);
    RB_GC_GUARD(url);
    RB_GC_GUARD(method);
    RB_GC_GUARD(url_copy);
    RB_GC_GUARD(method_copy);
    if (res == NULL) return Qfalse;

    uint64_t answer_id = pc_result_id(res);
    struct slot *slot = &slots[answer_id % SLOTS];
    if (slot->id == answer_id) {
        pc_result_release(res);
        last = slot;
        return slot->props;
    }
    /* An id is never 0 for a result, and a small Integer: no allocation. */
    VALUE id = ULL2NUM((unsigned long long)answer_id);
    VALUE known = rb_hash_lookup2(answers, id, Qundef);
    if (known != Qundef) {
        pc_result_release(res);
    } else {
        /* Owned before any Ruby code runs (see "Owned from the return"). */
        known = rb_funcall(properties_class, id_adopt, 2, own_pointer(res, pc_result_release), id);
    }
    slot->id = answer_id;
    slot->props = known;
    for (int k = 0; k < MAX_ACCESSORS; k++) slot->typed[k] = Qundef;
    last = slot;
    return known;
}

/*
 * The rule trampolines. The library calls a rule's predicate and configurer
 * on the thread that resolves, inside its own frames; these call the gem's
 * Pathconfig::Rules.run_rule(kind, context, request) under rb_protect.
 * run_rule rescues every exception, and what no rescue catches stops here:
 * a throw (Timeout.timeout without a class, on Ruby 3.1 and 3.2, throws to
 * its block), Thread#kill, a proc's break or return. Unwound through the
 * library, those skipped its frames' cleanup, which rules.h forbids (a
 * rule function "must return normally"): each expiry of a Timeout around a
 * lookup of a 60 KB URL leaked 120 to 150 KiB. Here the request fails, the
 * library returns, and the lookup resumes the jump (resume_pending) before
 * any other Ruby code runs, as rb_protect's callers do with rb_jump_tag.
 * pending_tag is the thread's: callbacks run on the thread that resolves,
 * and a lookup made from inside a callable resumes its own before the
 * outer trampoline returns. They call Ruby directly, holding the GVL: the
 * only calls that run rules, pathconfig_resolve and pathconfig_explain,
 * are made with it held (ffi's blocking calls are the loader's).
 */
static __thread int pending_tag;
static VALUE rules_module = Qnil;
static ID id_run_rule;
static VALUE sym_predicate = Qnil, sym_configurer = Qnil;

struct rule_call {
    VALUE kind;
    void *context;
    void *request;
};

static VALUE call_rule(VALUE arg) {
    const struct rule_call *call = (const struct rule_call *)arg;
    return rb_funcall(rules_module, id_run_rule, 3, call->kind, ULL2NUM((unsigned long long)(uintptr_t)call->context),
                      ULL2NUM((unsigned long long)(uintptr_t)call->request));
}

static int run_rule(VALUE kind, void *context, void *request) {
    struct rule_call call = {kind, context, request};
    int state = 0;
    VALUE result = rb_protect(call_rule, (VALUE)&call, &state);
    if (state == 0) return FIXNUM_P(result) ? FIX2INT(result) : -1;
    pending_tag = state;
    pc_request_fail(request, "stopped by a throw or Thread#kill, resumed once the lookup returns");
    return -1;
}

static int predicate_trampoline(void *context, void *request) {
    return run_rule(sym_predicate, context, request);
}

static int configurer_trampoline(void *context, void *request) {
    return run_rule(sym_configurer, context, request);
}

static void resume_pending(void) {
    int tag = pending_tag;
    if (tag != 0) {
        pending_tag = 0;
        rb_jump_tag(tag);
    }
}

/*
 * call-seq: Pathconfig::Speedups.trampolines(rules) -> [predicate, configurer]
 *
 * The addresses of the rule trampolines, for pathconfig_add_rule; rules is
 * the module whose run_rule(kind, context, request) they call.
 */
static VALUE sp_trampolines(VALUE self, VALUE rules) {
    (void)self;
    rules_module = rules;
    return rb_ary_new_from_args(2, ULL2NUM((unsigned long long)(uintptr_t)predicate_trampoline),
                                ULL2NUM((unsigned long long)(uintptr_t)configurer_trampoline));
}

/*
 * call-seq: Pathconfig::Speedups.resume -> nil
 *
 * Resumes the throw or kill a trampoline stopped during the library call
 * that just returned on this thread (nil when none). Called by the gem right
 * after each call through ffi that may run a rule's callables.
 */
static VALUE sp_resume(VALUE self) {
    (void)self;
    resume_pending();
    return Qnil;
}

static VALUE sp_lookup(VALUE self, VALUE config, VALUE url, VALUE method) {
    (void)self;
    check_bound();
    VALUE answer = lookup(address_of(config), url, method);
    resume_pending();
    return answer;
}

/* A PathConfiguration, once define_properties has made this its
 * allocator: a typed data object whose struct holds the address its
 * lookups go to. An instance variable would do, but each rb_ivar_get is a
 * search of the class's table of instance variables, 170 instructions of a
 * lookup whose whole binding costs about 1,000 (callgrind, 10 rules). The
 * struct holds no Ruby object: nothing to mark. */
struct lookup_target {
    void *address; /* NULL: closed, or rules with Ruby callbacks */
};

static const rb_data_type_t target_type = {
    .wrap_struct_name = "Pathconfig::PathConfiguration",
    .function = {.dfree = RUBY_TYPED_DEFAULT_FREE},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY,
};

static VALUE target_alloc(VALUE klass) {
    struct lookup_target *target;
    return TypedData_Make_Struct(klass, struct lookup_target, &target_type, target);
}

/* rb_typeddata_is_kind_of's test, inline: the call cost a lookup 24
 * instructions of 1,941 at ten rules (callgrind). */
static inline void *lookup_address_of(VALUE config) {
    if (!RB_TYPE_P(config, T_DATA) || !RTYPEDDATA_P(config) || RTYPEDDATA_TYPE(config) != &target_type) return NULL;
    return ((struct lookup_target *)RTYPEDDATA_DATA(config))->address;
}

/*
 * call-seq: Pathconfig::Speedups.set_address(config, address) -> nil
 *
 * Makes address (an Integer, 0 for none) the one config's properties()
 * looks up in: the configuration's, or 0 once it is closed or has rules
 * with Ruby callbacks, which only the gem's Ruby method handles. config
 * must have been allocated since define_properties.
 */
static VALUE sp_set_address(VALUE self, VALUE config, VALUE address) {
    (void)self;
    struct lookup_target *target = rb_check_typeddata(config, &target_type);
    target->address = address_of(address);
    return Qnil;
}

/*
 * call-seq: properties(url, method: nil) -> Properties
 *
 * PathConfiguration#properties, once define_properties has made it so:
 * lookup() for (url) or (url, method: m) on an open configuration without
 * Ruby callbacks, raising Pathconfig.last_error when the library fails;
 * every other call, and every url or method lookup() does not take as is,
 * goes to the gem's Ruby method, with the same arguments.
 */
static VALUE sp_properties(int argc, VALUE *argv, VALUE self) {
    VALUE method = Qnil;
    /* One String argument is the url: keywords would have come as a Hash.
     * rb_keyword_given_p reads the frame, so it is asked only otherwise. */
    int keywords = argc == 1 && RB_TYPE_P(argv[0], T_STRING) ? 0 : rb_keyword_given_p();
    if (argc == 2 && keywords) {
        VALUE options = argv[1];
        if (!RB_TYPE_P(options, T_HASH) || RHASH_SIZE(options) != 1) goto checked;
        method = rb_hash_lookup2(options, sym_method, Qundef);
        if (method == Qundef) goto checked;
    } else if (argc != 1 || keywords) {
        goto checked;
    }
    /* The address the configuration's own struct holds (set_address), NULL
     * when closed or when rules have Ruby callbacks. Nothing yields the GVL
     * between this read and the library's call, so #close on another thread
     * cannot release the address in between. */
    void *address = lookup_address_of(self);
    if (address == NULL) goto checked;
    VALUE answer = lookup(address, argv[0], method);
    if (answer == Qfalse) rb_exc_raise(rb_funcall(pathconfig_module, id_last_error, 0));
    if (!NIL_P(answer)) return answer;
checked:
    return rb_funcallv_kw(self, id_checked, argc, argv, keywords);
}

/*
 * call-seq: Pathconfig::Speedups.define_properties(klass, checked) -> nil
 *
 * Makes properties() klass's public method properties (PathConfiguration),
 * handing what it does not take itself to klass's method named checked (a
 * Symbol: the gem's Ruby method), and klass's instances structs that hold
 * the address it looks up in (set_address). After bind, before klass has
 * instances.
 */
static VALUE sp_define_properties(VALUE self, VALUE klass, VALUE checked) {
    (void)self;
    check_bound();
    Check_Type(klass, T_CLASS);
    id_checked = rb_sym2id(checked);
    rb_define_alloc_func(klass, target_alloc);
    rb_define_method(klass, "properties", sp_properties, -1);
    return Qnil;
}

/* A typed accessor of Properties (define_accessors): the value of the
 * accessor's instance variable, read from the front's last slot when self
 * is the answer lookup() gave last. */
static inline VALUE typed_read(VALUE self, int k) {
    struct slot *slot = last;
    if (slot != NULL && slot->props == self) {
        VALUE value = slot->typed[k];
        if (value == Qundef) value = slot->typed[k] = rb_ivar_get(self, accessor_ivars[k]);
        return value;
    }
    return rb_ivar_get(self, accessor_ivars[k]);
}

#define ACCESSOR(k) static VALUE typed_accessor_##k(VALUE self) { return typed_read(self, k); }
ACCESSOR(0) ACCESSOR(1) ACCESSOR(2) ACCESSOR(3) ACCESSOR(4) ACCESSOR(5) ACCESSOR(6) ACCESSOR(7)
ACCESSOR(8) ACCESSOR(9) ACCESSOR(10) ACCESSOR(11) ACCESSOR(12) ACCESSOR(13) ACCESSOR(14) ACCESSOR(15)
#undef ACCESSOR
static VALUE (*const typed_accessors[MAX_ACCESSORS])(VALUE) = {
    typed_accessor_0, typed_accessor_1, typed_accessor_2, typed_accessor_3,
    typed_accessor_4, typed_accessor_5, typed_accessor_6, typed_accessor_7,
    typed_accessor_8, typed_accessor_9, typed_accessor_10, typed_accessor_11,
    typed_accessor_12, typed_accessor_13, typed_accessor_14, typed_accessor_15,
};

/*
 * call-seq: Pathconfig::Speedups.define_accessors(klass, accessors) -> Integer
 *
 * accessors: [name, ivar] pairs (a String and a Symbol). Makes each of the
 * first MAX_ACCESSORS (16, Pathconfig::Speedups::MAX_ACCESSORS) klass's
 * public method name, reading ivar as attr_reader would (typed_read);
 * returns how many it made, the rest stay as they are. Once, after bind.
 */
static VALUE sp_define_accessors(VALUE self, VALUE klass, VALUE pairs) {
    (void)self;
    check_bound();
    Check_Type(klass, T_CLASS);
    Check_Type(pairs, T_ARRAY);
    if (accessor_count != 0) rb_raise(rb_eRuntimeError, "define_accessors: called twice");
    long count = RARRAY_LEN(pairs) < MAX_ACCESSORS ? RARRAY_LEN(pairs) : MAX_ACCESSORS;
    for (long k = 0; k < count; k++) {
        VALUE pair = rb_ary_entry(pairs, k);
        Check_Type(pair, T_ARRAY);
        accessor_ivars[k] = rb_sym2id(rb_ary_entry(pair, 1));
    }
    for (long k = 0; k < count; k++) {
        VALUE name = rb_ary_entry(rb_ary_entry(pairs, k), 0);
        rb_define_method(klass, StringValueCStr(name), typed_accessors[k], 0);
    }
    accessor_count = (int)count;
    return INT2FIX(count);
}

/* The raw getters of Properties (define_raw_getters): each answers a key it
 * has read before from what the gem kept (@raw[getter][key],
 * Properties#raw), and hands every other call to the gem's Ruby getter,
 * which reads the library, keeps and checks. A kept read in Ruby was a
 * method, a block and a second method around that Hash read, 0.16
 * microseconds: more than the lookup before it at ten rules. */
#define RAW_GETTERS 5
static ID id_raw;
static ID raw_names[RAW_GETTERS];   /* each getter's name: its key in @raw */
static ID raw_checked[RAW_GETTERS]; /* the gem's Ruby getter it hands the rest to */

static inline VALUE raw_read(VALUE self, VALUE key, int k) {
    VALUE raw = rb_attr_get(self, id_raw);
    VALUE kept = RB_TYPE_P(raw, T_HASH) ? rb_hash_lookup2(raw, ID2SYM(raw_names[k]), Qnil) : Qnil;
    VALUE value = RB_TYPE_P(kept, T_HASH) ? rb_hash_lookup2(kept, key, Qundef) : Qundef;
    return value != Qundef ? value : rb_funcall(self, raw_checked[k], 1, key);
}

#define RAW_GETTER(k) static VALUE raw_getter_##k(VALUE self, VALUE key) { return raw_read(self, key, k); }
RAW_GETTER(0) RAW_GETTER(1) RAW_GETTER(2) RAW_GETTER(3) RAW_GETTER(4)
#undef RAW_GETTER
static VALUE (*const raw_getters[RAW_GETTERS])(VALUE, VALUE) = {
    raw_getter_0, raw_getter_1, raw_getter_2, raw_getter_3, raw_getter_4,
};

/*
 * call-seq: Pathconfig::Speedups.define_raw_getters(klass, getters) -> nil
 *
 * getters: RAW_GETTERS (5) [name, checked] pairs of Symbols. Makes each
 * klass's public method name (raw_read): a key kept in @raw[name] is
 * answered at once, any other call is checked(key). Once, after bind.
 */
static VALUE sp_define_raw_getters(VALUE self, VALUE klass, VALUE pairs) {
    (void)self;
    check_bound();
    Check_Type(klass, T_CLASS);
    Check_Type(pairs, T_ARRAY);
    if (RARRAY_LEN(pairs) != RAW_GETTERS) rb_raise(rb_eArgError, "define_raw_getters: %d getters expected", RAW_GETTERS);
    if (raw_names[0] != 0) rb_raise(rb_eRuntimeError, "define_raw_getters: called twice");
    for (int k = 0; k < RAW_GETTERS; k++) {
        VALUE pair = rb_ary_entry(pairs, k);
        Check_Type(pair, T_ARRAY);
        raw_names[k] = rb_sym2id(rb_ary_entry(pair, 0));
        raw_checked[k] = rb_sym2id(rb_ary_entry(pair, 1));
    }
    for (int k = 0; k < RAW_GETTERS; k++) rb_define_method(klass, rb_id2name(raw_names[k]), raw_getters[k], 1);
    return Qnil;
}

/*
 * call-seq: Pathconfig::Speedups.typed_string(result, key) -> String, nil or false
 *
 * pathconfig_result_typed_string(result, key) for the result at address
 * result (which the caller holds): a frozen UTF-8 String, nil when the key
 * has no value and no default, false when the read failed
 * (pathconfig_last_error says why).
 */
static VALUE sp_typed_string(VALUE self, VALUE result, VALUE key) {
    (void)self;
    check_bound();
    const char *value = pc_typed_string(address_of(result), NUM2INT(key));
    if (value == NULL) return last_code() == 0 ? Qnil : Qfalse;
    return rb_obj_freeze(rb_utf8_str_new_cstr(value));
}

/*
 * call-seq: Pathconfig::Speedups.typed_bool(result, key) -> true, false or nil
 *
 * pathconfig_result_typed_bool(result, key) for the result at address
 * result (which the caller holds): true or false, nil when the read failed
 * (pathconfig_last_error says why).
 */
static VALUE sp_typed_bool(VALUE self, VALUE result, VALUE key) {
    (void)self;
    check_bound();
    int value = pc_typed_bool(address_of(result), NUM2INT(key));
    if (value == 0 && last_code() != 0) return Qnil;
    return value == 1 ? Qtrue : Qfalse;
}

/*
 * Owned: a reference on a library object (a result, a configuration) that
 * the garbage collector gives back, in C, when the object holding it goes:
 * a Properties, a PathConfiguration (own_pointer, own_configuration), in
 * place of an ObjectSpace.define_finalizer proc. Ruby runs finalizers and
 * pending signal handlers at the same interrupt check, and a signal's
 * exception raised inside a finalizer (Ctrl-C's Interrupt, a trap's) is
 * swallowed there, the release after it skipped: about half the SIGINTs
 * sent while configurations were dropped were lost so. A dfree runs no
 * Ruby code.
 *
 * Not RUBY_TYPED_FREE_IMMEDIATELY: the dfree is deferred to the
 * collector's finalization phase, out of the sweep, because a
 * configuration's release frees its Ruby rules' payloads, and
 * free_payload (below) changes a Hash. Nothing is given back once the
 * process exits:
 * Ruby then runs every finalizer, and then frees every object with a dfree
 * in no order, ffi's library and callbacks among them (a release after
 * ffi's library went jumped to an unmapped address). The gem's finalizer
 * of an object kept for good (FastPath, EXIT) calls mark_exiting, and the
 * process is about to release everything anyway. (Not an end proc: those
 * run in the reverse order of their registration, and Minitest's autorun
 * runs the tests in one.)
 */
struct owned {
    void *address; /* NULL once given back */
    release_fn release;
};

static int exiting;

/*
 * call-seq: Pathconfig::Speedups.mark_exiting(object_id) -> nil
 *
 * From now on, an Owned that goes gives nothing back. The finalizer of an
 * object the gem keeps for good: Ruby runs it as the process exits, before
 * it frees the objects with a dfree.
 */
static VALUE sp_mark_exiting(VALUE self, VALUE object_id) {
    (void)self;
    (void)object_id;
    exiting = 1;
    return Qnil;
}

static void owned_free(void *data) {
    struct owned *owned = data;
    if (owned->address != NULL && !exiting) owned->release(owned->address);
    xfree(owned);
}

static size_t owned_memsize(const void *data) {
    (void)data;
    return sizeof(struct owned);
}

static const rb_data_type_t owned_type = {
    .wrap_struct_name = "Pathconfig::Speedups::Owned",
    .function = {.dfree = owned_free, .dsize = owned_memsize},
};

static VALUE owned_class;

static VALUE own_pointer(void *pointer, release_fn release) {
    struct owned *owned;
    VALUE object = TypedData_Make_Struct(owned_class, struct owned, &owned_type, owned);
    owned->address = pointer;
    owned->release = release;
    return object;
}

static VALUE own(VALUE address, release_fn release) {
    check_bound();
    return own_pointer(address_of(address), release);
}

/*
 * call-seq: Pathconfig::Speedups.own_configuration(address) -> Owned
 *
 * The owner of the caller's reference on the configuration at address,
 * given back (pathconfig_release) by Owned#release or when the owner goes:
 * for PathConfiguration.wrap given an address.
 */
static VALUE sp_own_configuration(VALUE self, VALUE address) {
    (void)self;
    return own(address, pc_release);
}

/*
 * Owned from the return: the from_native of the ffi converters that
 * Pathconfig::Native declares as the result types of the calls that hand
 * their caller something to free (NewConfiguration, NewResult, NewText).
 * Ruby runs a pending signal handler (Ctrl-C's Interrupt, a trap that
 * raises) as a method implemented in C returns, ffi's attached functions
 * among them, so an address returned as an Integer was lost to a handler
 * that raised there: 20 loads of bench/corpora/rules-10000.json, each
 * interrupted so, kept 172 MiB of the heap. ffi calls from_native before
 * its method returns, and these make the Owned (or copy and free the text)
 * in C, before any Ruby code runs. Through ffi alone, from_native is
 * DataConverter's, which returns the address as it is.
 */
static VALUE configuration_from_native(VALUE self, VALUE address, VALUE context) {
    (void)self;
    (void)context;
    void *pointer = address_of(address);
    return pointer == NULL ? Qnil : own_pointer(pointer, pc_release);
}

static VALUE result_from_native(VALUE self, VALUE address, VALUE context) {
    (void)self;
    (void)context;
    void *pointer = address_of(address);
    return pointer == NULL ? Qnil : own_pointer(pointer, pc_result_release);
}

/* A char * the caller frees: a UTF-8 String of it, the text freed. */
static VALUE text_from_native(VALUE self, VALUE address, VALUE context) {
    (void)self;
    (void)context;
    char *text = address_of(address);
    if (text == NULL) return Qnil;
    VALUE string = rb_utf8_str_new_cstr(text);
    pc_string_free(text);
    return string;
}

/*
 * call-seq: Pathconfig::Speedups.define_converters(configuration, result, text) -> nil
 *
 * Makes the functions above the from_native of the three converters.
 */
static VALUE sp_define_converters(VALUE self, VALUE configuration, VALUE result, VALUE text) {
    (void)self;
    check_bound();
    rb_define_singleton_method(configuration, "from_native", configuration_from_native, 2);
    rb_define_singleton_method(result, "from_native", result_from_native, 2);
    rb_define_singleton_method(text, "from_native", text_from_native, 2);
    return Qnil;
}

/*
 * call-seq: owned.release -> nil
 *
 * Gives the reference back now; later calls, and the collector, do nothing.
 * Runs no Ruby code, so no interrupt arrives in between: it is given back
 * once.
 */
static VALUE owned_release(VALUE self) {
    struct owned *owned;
    TypedData_Get_Struct(self, struct owned, &owned_type, owned);
    void *address = owned->address;
    owned->address = NULL;
    if (address != NULL) owned->release(address);
    return Qnil;
}

/*
 * call-seq: owned.address -> Integer
 *
 * The address of the object held, 0 once given back or taken.
 */
static VALUE owned_address(VALUE self) {
    struct owned *owned;
    TypedData_Get_Struct(self, struct owned, &owned_type, owned);
    return ULL2NUM((unsigned long long)(uintptr_t)owned->address);
}

/*
 * call-seq: owned.take -> Integer
 *
 * The address, now the caller's to give back; this Owned holds nothing
 * more (0 when it held nothing).
 */
static VALUE owned_take(VALUE self) {
    struct owned *owned;
    TypedData_Get_Struct(self, struct owned, &owned_type, owned);
    void *address = owned->address;
    owned->address = NULL;
    return ULL2NUM((unsigned long long)(uintptr_t)address);
}

/*
 * free_payload: the payload free in C (pathconfig_loader_payload_free,
 * pathconfig_add_rule's free_context), for the gem's Hash of held objects
 * by key (Pathconfig::Callbacks). The library calls it as it lets go of a
 * callback, often inside a configuration's release, an Owned's dfree among
 * them: there ffi's Ruby block would run Ruby code, where a signal's
 * exception is lost (ffi drops what a callback raises outside an ffi
 * call). This drops the key and runs none. On a thread of the library's
 * own (the loader's), which may not touch Ruby, it hands the call to ffi's
 * function (Callbacks::FFI_FREE), which passes it to a Ruby thread.
 */

/* Exported by libruby, and used by ffi, but not in Ruby 3.1's headers. */
int ruby_thread_has_gvl_p(void);

static VALUE held_objects;           /* Callbacks' Hash */
static void (*ffi_free)(void *);     /* Callbacks::FFI_FREE */

static void *drop_key(void *payload) {
    rb_hash_delete(held_objects, ULL2NUM((unsigned long long)(uintptr_t)payload));
    return NULL;
}

static void free_payload(void *payload) {
    if (payload == NULL) return;
    if (!ruby_native_thread_p()) {
        ffi_free(payload);
    } else if (ruby_thread_has_gvl_p()) {
        drop_key(payload);
    } else {
        rb_thread_call_with_gvl(drop_key, payload);
    }
}

/*
 * call-seq: Pathconfig::Speedups.bind_payloads(held, ffi_free) -> Integer
 *
 * The gem's Hash of held objects and the address of ffi's payload free;
 * returns the address of free_payload, to name in every registration.
 */
static VALUE sp_bind_payloads(VALUE self, VALUE hash, VALUE ffi_free_address) {
    (void)self;
    Check_Type(hash, T_HASH);
    void *address = address_of(ffi_free_address);
    if (address == NULL) rb_raise(rb_eArgError, "bind_payloads: ffi's free is at 0");
    held_objects = hash;
    ffi_free = (void (*)(void *))address;
    return ULL2NUM((unsigned long long)(uintptr_t)free_payload);
}

void Init_speedups(void) {
    VALUE pathconfig = rb_define_module("Pathconfig");
    VALUE speedups = rb_define_module_under(pathconfig, "Speedups");
    rb_gc_register_address(&answers);
    rb_gc_register_address(&properties_class);
    id_adopt = rb_intern("adopt");
    pathconfig_module = pathconfig;
    rb_gc_register_address(&pathconfig_module);
    id_last_error = rb_intern("last_error");
    sym_method = ID2SYM(rb_intern("method"));
    rb_gc_register_address(&sym_method);
    utf8_index = rb_utf8_encindex();
    usascii_index = rb_usascii_encindex();
    rb_define_const(speedups, "MAX_ACCESSORS", INT2FIX(MAX_ACCESSORS));
    rb_define_module_function(speedups, "bind", sp_bind, 3);
    owned_class = rb_define_class_under(speedups, "Owned", rb_cObject);
    rb_gc_register_address(&owned_class);
    rb_undef_alloc_func(owned_class);
    rb_define_method(owned_class, "release", owned_release, 0);
    rb_define_method(owned_class, "address", owned_address, 0);
    rb_define_method(owned_class, "take", owned_take, 0);
    rb_define_module_function(speedups, "define_converters", sp_define_converters, 3);
    rb_define_module_function(speedups, "own_configuration", sp_own_configuration, 1);
    rb_define_module_function(speedups, "mark_exiting", sp_mark_exiting, 1);
    rb_gc_register_address(&held_objects);
    rb_define_module_function(speedups, "bind_payloads", sp_bind_payloads, 2);
    rb_define_module_function(speedups, "lookup", sp_lookup, 3);
    rb_define_module_function(speedups, "trampolines", sp_trampolines, 1);
    rb_define_module_function(speedups, "resume", sp_resume, 0);
    rb_gc_register_address(&rules_module);
    id_run_rule = rb_intern("run_rule");
    sym_predicate = ID2SYM(rb_intern("predicate"));
    sym_configurer = ID2SYM(rb_intern("configurer"));
    rb_define_module_function(speedups, "typed_string", sp_typed_string, 2);
    rb_define_module_function(speedups, "typed_bool", sp_typed_bool, 2);
    rb_define_module_function(speedups, "define_properties", sp_define_properties, 2);
    rb_define_module_function(speedups, "set_address", sp_set_address, 2);
    rb_define_module_function(speedups, "define_accessors", sp_define_accessors, 2);
    id_raw = rb_intern("@raw");
    rb_define_module_function(speedups, "define_raw_getters", sp_define_raw_getters, 2);
    rb_gc_register_mark_object(TypedData_Wrap_Struct(0, &front_type, slots));
}
