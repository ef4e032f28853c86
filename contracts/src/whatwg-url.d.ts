// The one global the contracts use: the WHATWG URL parser, the same class in browsers and in Node. The package is
// checked without the DOM and Node libraries (so neither `window` nor `process` can creep in); this declares the
// part of URL it reads. The packages that import the contracts get the full class from their own library.
declare class URL {
  constructor(url: string, base?: string);
  readonly host: string;
  readonly hostname: string;
  readonly password: string;
  readonly pathname: string;
  readonly port: string;
  readonly protocol: string;
  readonly username: string;
}
