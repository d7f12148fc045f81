/* libidn2: internationalised host names to ASCII (UTS #46), for the siesta
 * profile's URLs (Sources/PathConfigCore/Matching/IDNA.swift). */
#ifndef PATHCONFIG_CIDN2_SHIM_H
#define PATHCONFIG_CIDN2_SHIM_H
#include <idn2.h>
#endif
