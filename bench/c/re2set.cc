// RE2::Set behind the C interface of re2set.h.
#include "re2set.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <cstring>
#include <new>
#include <string>
#include <vector>

struct re2set {
    re2::RE2::Set set;
    std::vector<uint32_t> rule_of;  // pattern index in the set -> rule
    std::vector<int> hits;          // reused by every match: no allocation per lookup

    static re2::RE2::Options options() {
        re2::RE2::Options o;  // UTF-8, case-sensitive
        o.set_log_errors(false);
        // RE2's default budget (8 MiB) cannot compile 10,000 of the corpus's
        // patterns (Compile fails); 512 MiB compiles them and gives the DFA
        // room (more measured no faster).
        o.set_max_mem(int64_t(512) << 20);
        return o;
    }
    re2set() : set(options(), re2::RE2::UNANCHORED) {}
};

extern "C" re2set *re2set_new(void) { return new (std::nothrow) re2set(); }

extern "C" int re2set_add(re2set *s, const char *pattern, size_t len, uint32_t rule, char *error, size_t error_size) {
    std::string message;
    if (s->set.Add(re2::StringPiece(pattern, len), &message) < 0) {
        if (error_size > 0) {
            std::strncpy(error, message.c_str(), error_size - 1);
            error[error_size - 1] = '\0';
        }
        return -1;
    }
    s->rule_of.push_back(rule);
    return 0;
}

extern "C" int re2set_compile(re2set *s) {
    s->hits.reserve(s->rule_of.size());
    return s->set.Compile() ? 0 : -1;
}

extern "C" size_t re2set_match_rules(re2set *s, const char *text, size_t len, uint32_t *stamp, uint32_t gen, int *failed) {
    re2::RE2::Set::ErrorInfo info{re2::RE2::Set::kNoError};
    if (!s->set.Match(re2::StringPiece(text, len), &s->hits, &info)) {
        if (info.kind != re2::RE2::Set::kNoError) *failed = 1;
        return 0;
    }
    size_t n = 0;
    for (int i : s->hits) {
        uint32_t rule = s->rule_of[(size_t)i];
        if (stamp[rule] != gen) {
            stamp[rule] = gen;
            n++;
        }
    }
    return n;
}

extern "C" void re2set_free(re2set *s) { delete s; }
