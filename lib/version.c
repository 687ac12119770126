/* gcol_version(): the version this library was compiled as (gcol/version.h). */
#include "gcol/version.h"

const char *gcol_version(void) { return GCOL_VERSION_STRING; }
