// Exempi, Adobe's XMP Toolkit behind a C API (Debian: libexempi-dev): XMP packets parsed as
// the RDF/XML they are, with their namespaces, and written back keeping every property.
#include <exempi/xmp.h>
#include <exempi/xmpconsts.h>
