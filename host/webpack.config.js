// The shell: it exposes nothing and learns its remotes at run time from runtime-config.js (scripts/webpack).
const { hostConfig } = require('../scripts/webpack/federation');

module.exports = hostConfig(__dirname);
