/* memory_pool.c: to be written. */
#include "gcol/gcol.h"
