// GEOS's C API, reentrant functions only (each call names its context handle).
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
