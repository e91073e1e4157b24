// The tests read English unless one sets a language itself: the developer's locale (LANG=zh_CN.UTF-8)
// must not change what the CLI the tests start prints.
process.env.QPREP_LANG = 'en';
