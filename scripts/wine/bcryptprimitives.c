/* A stand-in bcryptprimitives.dll for scripts/wine-test only: Wine 8 has no ProcessPrng, which Rust's
 * standard library (in the tiktoken, pydantic-core and rpds-py wheels) imports from this DLL on Windows.
 * It fills the buffer from RtlGenRandom (advapi32's SystemFunction036), which Wine has. Real Windows
 * (10 and later) ships its own bcryptprimitives.dll; this file is never part of MCP Lens. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!RtlGenRandom(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
