/* PCRE2 needs its code unit width chosen before the header is read. */
#ifndef PATHCONFIG_CPCRE2_SHIM_H
#define PATHCONFIG_CPCRE2_SHIM_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
