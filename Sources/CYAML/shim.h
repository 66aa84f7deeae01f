#ifndef LIVESTATE_CYAML_SHIM_H
#define LIVESTATE_CYAML_SHIM_H
#include <yaml.h>
#endif
