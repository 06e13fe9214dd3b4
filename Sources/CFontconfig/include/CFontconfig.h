// Opened on first use (see CLoader.h): finding a font that has a line's letters (CJK and others
// DejaVu Sans lacks).
#ifndef DECIBAR_CFONTCONFIG_H
#define DECIBAR_CFONTCONFIG_H

#include <CLoader.h>
#include <fontconfig/fontconfig.h>

#define DECIBAR_FONTCONFIG_FUNCTIONS(X) \
    X(FcInit) X(FcPatternCreate) X(FcPatternDestroy) X(FcPatternAddString) X(FcPatternAddInteger) \
    X(FcPatternAddCharSet) X(FcCharSetCreate) X(FcCharSetDestroy) X(FcCharSetAddChar) X(FcConfigSubstitute) \
    X(FcDefaultSubstitute) X(FcFontMatch) X(FcPatternGetString) X(FcPatternGetInteger) X(FcPatternGetCharSet) \
    X(FcCharSetHasChar)

typedef struct { DECIBAR_FONTCONFIG_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarFontconfig;

const DecibarFontconfig *decibar_fontconfig_load(char *message, int size);

#endif
