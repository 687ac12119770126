/* Host reference helpers shared by tests: logical column comparison. */
#include "test_util.h"
