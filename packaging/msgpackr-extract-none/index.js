// No native extractor: msgpackr checks for extractStrings and uses its JavaScript decoder without it.
module.exports = {};
