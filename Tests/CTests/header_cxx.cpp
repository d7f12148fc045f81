// The header compiles as C++ (extern "C", no C-only constructs) and links:
// one call at least from each of its parts (pathconfig/common.h, config.h,
// result.h, catalog.h, loader.h, rules.h), so a part without its own extern "C" fails
// here with an undefined, C++-mangled name.
#include "pathconfig.h"

#include <cstdio>
#include <cstring>

int main()
{
    pathconfig_error err;
    // config.h and common.h
    pathconfig *cfg = pathconfig_load_json("{\"rules\":[]}", 12, nullptr, &err);
    bool ok = cfg != nullptr && std::strcmp(pathconfig_version(), PATHCONFIG_VERSION) == 0 &&
              pathconfig_rule_count(cfg) == 3;
    // result.h
    pathconfig_result *res = pathconfig_resolve(cfg, "/x", nullptr, nullptr);
    ok = ok && res != nullptr && std::strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), "default") == 0;
    pathconfig_result_release(res);
    // rules.h: a lookup for a method, and invalidate
    res = pathconfig_resolve(cfg, "/x", "POST", &err);
    ok = ok && res != nullptr && err.code == PATHCONFIG_OK && pathconfig_invalidate(cfg) == PATHCONFIG_OK;
    pathconfig_result_release(res);
    // catalog.h
    ok = ok && pathconfig_profile_count() >= 1;
    // loader.h (a new loader reads nothing yet)
    pathconfig_loader *loader = pathconfig_loader_new("[{\"file\": \"/nonexistent.json\"}]", nullptr, &err);
    ok = ok && loader != nullptr && err.code == PATHCONFIG_OK;
    pathconfig_loader_free(loader);
    pathconfig_release(cfg);
    std::printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
    return ok ? 0 : 1;
}
