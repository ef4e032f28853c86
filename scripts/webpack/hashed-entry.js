// The entry's file name: content-hashed, but for the moment the federation runtime asks for it too early.
/**
 * Entry files are content-hashed for long caching. The federation runtime of @module-federation/enhanced 2.9 asks for
 * the entry's file name while webpack is still hashing (module-federation/core#5077), before the content hash
 * exists: it only needs the folder, so it gets the unhashed name then.
 */
/** @param {import('webpack').PathData} pathData */
function hashedEntryFilename(pathData) {
  return pathData.chunk?.contentHash?.javascript ? '[name].[contenthash:10].js' : '[name].js';
}

module.exports = { hashedEntryFilename };
