// The header compiles as C++ (extern "C", no C-only constructs) and links.
#include "pathconfig.h"

#include <cstdio>
#include <cstring>

int main()
{
    pathconfig_error err;
    pathconfig *cfg = pathconfig_load_json("{\"rules\":[]}", 12, nullptr, &err);
    const bool ok = cfg != nullptr && std::strcmp(pathconfig_version(), PATHCONFIG_VERSION) == 0 &&
                    pathconfig_rule_count(cfg) == 3;
    pathconfig_release(cfg);
    std::printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
    return ok ? 0 : 1;
}
