// bmp-js ships no types; this is the part of its API we use.
declare module 'bmp-js' {
  export function decode(buffer: Buffer): { width: number; height: number; data: Buffer };
  export function encode(image: { width: number; height: number; data: Buffer }): { data: Buffer };
}
