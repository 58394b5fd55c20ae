#ifndef GENERATE_CSTEMMER_SHIM_H
#define GENERATE_CSTEMMER_SHIM_H
// Snowball's stemmers (Debian's libstemmer-dev): one algorithm per language,
// UTF-8 in and out. Only Index/Snowball.swift imports this module.
#include <libstemmer.h>
#endif
