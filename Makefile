# SPDX-License-Identifier: GPL-2.0-only
# nurseshark: quiet by default, `make V=1` shows every command.

prefix ?= /usr/local
bindir ?= $(prefix)/bin
mandir ?= $(prefix)/share/man
completionsdir ?= $(prefix)/share/bash-completion/completions
DESTDIR ?=

CC ?= gcc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
BUILD := build

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

# Minimum versions: what the code calls and what Debian 12 ships.
PKGS := libtraceevent>=1.5 libtracecmd>=1.2 libtracefs>=1.3 inih>=53 ncursesw>=6.1 \
	libzstd>=1.4 zlib>=1.2
PKG_NAMES := $(foreach p,$(PKGS),$(firstword $(subst >=, ,$(p))))

# Probe once per make run; `make deps` installs what is missing.
ifeq ($(filter deps clean help,$(MAKECMDGOALS)),)
PKG_MISSING := $(foreach p,$(PKGS),$(if $(shell $(PKG_CONFIG) --atleast-version=$(word 2,$(subst >=, ,$(p))) $(firstword $(subst >=, ,$(p))) 2>/dev/null && echo y),,$(p)))
endif

DEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKG_NAMES) 2>/dev/null)
DEP_LIBS = $(shell $(PKG_CONFIG) --libs $(PKG_NAMES) 2>/dev/null)

override CFLAGS += -pthread -std=gnu11 -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE \
	-Iinclude $(DEP_CFLAGS) -MMD -MP
LDLIBS += $(DEP_LIBS) -lm -pthread
# src/trace/clock.c, kallsyms.c and cmdlines.c stand in for a function of
# libtracecmd's and two of libtraceevent's: export them (and test_pages.c
# counts the calls of a third)
override LDFLAGS += -Wl,--export-dynamic-symbol=tracecmd_parse_trace_clock \
	-Wl,--export-dynamic-symbol=tep_parse_kallsyms \
	-Wl,--export-dynamic-symbol=tep_parse_saved_cmdlines \
	-Wl,--export-dynamic-symbol=tep_plugin_add_options

LIB_SRCS := $(wildcard src/trace/*.c src/model/*.c src/session/*.c src/tui/*.c src/record/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/main.o
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

all: check-deps $(BUILD)/nurseshark

check-deps:
ifneq ($(strip $(PKG_MISSING)),)
	@echo "nurseshark: missing libraries: $(PKG_MISSING)" >&2
	@echo "  run 'make deps' (or contrib/install-deps.sh) to install them" >&2
	@exit 1
endif

$(BUILD)/nurseshark: $(MAIN_OBJ) $(BUILD)/libnurseshark.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libnurseshark.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/libnurseshark.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The fuzzer (tests/fuzz.sh); not in $(BUILD)/tests, whose programs are unit tests.
$(BUILD)/fuzz/fuzz: tests/fuzz/fuzz.c
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)
	$(Q)$(CC) -O2 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE -o $@ $<

# A trace's pages re-packed into bigger ones (tests/fuzz.sh).
$(BUILD)/fuzz/repage: tests/fuzz/repage.c
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)
	$(Q)$(CC) -O2 -g -Wall -Wextra -D_GNU_SOURCE -o $@ $<

# Preloaded into trace-cmd, the tests' oracle (tests/oracle/malloc0.c says
# why): built without the sanitizer flags, as trace-cmd is.
$(BUILD)/oracle/malloc0.so: tests/oracle/malloc0.c
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -shared -fPIC -o $@ $<

# What malloc(0) holds after a free (tests/oracle.sh).
$(BUILD)/oracle/malloc0-check: tests/oracle/malloc0-check.c
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)
	$(Q)$(CC) -O0 -fno-builtin -Wall -Wextra -o $@ $<

tests: all $(UNIT_BINS) $(BUILD)/fuzz/fuzz $(BUILD)/fuzz/repage $(BUILD)/oracle/malloc0.so \
	$(BUILD)/oracle/malloc0-check

deps:
	$(Q)contrib/install-deps.sh

run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(BUILD)/nurseshark contrib/sample.dat

# The suite, then the unit tests and tests/cli.sh again under ASan+UBSan
# (build-asan/), all in one total.
test: deps
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="$(ASAN_CFLAGS)" tests
	$(Q)NS_ASAN_BUILD=build-asan tests/run.sh

# Sanitizer builds, each in its own folder, running the unit tests and the
# command-line tests: ASan with UBSan, and TSan.
ASAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
TSAN_CFLAGS := -O1 -g -fsanitize=thread
asan: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="$(ASAN_CFLAGS)" tests
	$(Q)NS_BUILD=build-asan NS_SANITIZER=asan tests/run.sh unit/ cli

tsan: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-tsan CFLAGS="$(TSAN_CFLAGS)" tests
	$(Q)NS_BUILD=build-tsan NS_SANITIZER=tsan tests/run.sh unit/ cli

# A long fuzzing run: FUZZ_RUNS runs per base (default 2000), FUZZ_SEED,
# FUZZ_SECONDS the time limit per base; prints the runs by outcome.
FUZZ_RUNS ?= 2000
FUZZ_SEED ?= 1
FUZZ_SECONDS ?= 3600
fuzz: deps
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SEED=$(FUZZ_SEED) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		bash tests/fuzz.sh | grep -v '^PASS: fuzz: replay'


bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/bench.sh $(TRACE)

# The man page's KEYS table, the README's screenshot and contrib/config.ini
# come from the binary.
docs: all
	$(Q)contrib/gen-docs.sh update $(BUILD)/nurseshark

# The whole-screen expected files of tests/screens.sh, written again from
# --snapshot: review the diff before committing it.
screens-update: all
	$(Q)tests/screens.sh --update

install: all
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man5
	install -m 755 $(BUILD)/nurseshark $(DESTDIR)$(bindir)/nurseshark
	install -m 644 man/nurseshark.1 $(DESTDIR)$(mandir)/man1/nurseshark.1
	install -m 644 man/nurseshark.ini.5 $(DESTDIR)$(mandir)/man5/nurseshark.ini.5
	install -d $(DESTDIR)$(completionsdir)
	install -m 644 contrib/nurseshark.bash $(DESTDIR)$(completionsdir)/nurseshark

uninstall:
	rm -f $(DESTDIR)$(bindir)/nurseshark $(DESTDIR)$(mandir)/man1/nurseshark.1 \
		$(DESTDIR)$(mandir)/man5/nurseshark.ini.5 $(DESTDIR)$(completionsdir)/nurseshark

clean:
	rm -rf $(BUILD) build-asan build-tsan

.PHONY: all check-deps tests deps run test asan tsan fuzz bench docs screens-update install \
	uninstall clean
.SECONDARY:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
