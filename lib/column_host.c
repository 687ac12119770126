/* column_host.c: to be written. */
#include "gcol/gcol.h"
