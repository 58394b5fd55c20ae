#ifndef GENERATE_CLIBXML2_SHIM_H
#define GENERATE_CLIBXML2_SHIM_H
// Debian's libxml2 headers pull in the system ICU, which clashes with
// Foundation's private ICU module; xmlversion.h must come first so the
// flag can be switched off before anything else sees it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

// Swift 6 treats the global `xmlFree` function pointer as shared mutable
// state; calling it through an inline function keeps the boundary clean.
static inline void generate_xmlFree(void *pointer) { xmlFree(pointer); }

// The thread's current structured error handler and its context. In
// threaded builds these are macros over per-thread storage, which Swift
// cannot import; reading them here lets a caller restore what it replaced.
static inline xmlStructuredErrorFunc generate_currentStructuredErrorHandler(void) {
  return xmlStructuredError;
}
static inline void *generate_currentStructuredErrorContext(void) {
  return xmlStructuredErrorContext;
}

#endif
