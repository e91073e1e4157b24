/**
 * The first 8 bytes of a .safetensors file: the length of the JSON header that follows, as an
 * unsigned little-endian 64-bit integer (the format of huggingface/safetensors). null when the
 * bytes are too few or the length is not one a file could hold (the format caps the header at
 * 100,000,000 bytes). Never throws.
 */
export const SAFETENSORS_MAX_HEADER_BYTES = 100_000_000;

export function safetensorsHeaderLength(bytes: Uint8Array): number | null {
  if (bytes.length < 8) return null;
  let length = 0;
  for (let i = 7; i >= 0; i--) length = length * 256 + bytes[i]!;
  return length > 0 && length <= SAFETENSORS_MAX_HEADER_BYTES ? length : null;
}
