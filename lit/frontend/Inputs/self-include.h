#include "self-include.h"
