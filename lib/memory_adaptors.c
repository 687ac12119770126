/* memory_adaptors.c: to be written. */
#include "gcol/gcol.h"
