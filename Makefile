# Gallery Viewer — build, run, test and install.
#
#   make run        set everything up (Debian packages, build, demo gallery) and open the app on the offline demo
#   make test       set everything up, then unit/UI tests (also under AddressSanitizer), end-to-end test, resource
#                   validation, install check
#   make install    release build (Swift stdlib linked statically) installed under $(DESTDIR)$(PREFIX)
#   make help       all targets and variables
#
# Missing Debian packages are installed by .ci/install-deps (apt-get, with sudo when not root); the checks are
# cheap, so every target that needs packages depends on `deps` or `test-deps`.

APP_ID := io.github.galleryviewer.GalleryViewer

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
# gallery-decoder, the app's image-decoding helper, goes to LIBEXECDIR. The app looks for it beside itself (a build
# directory), in ../libexec/gallery-viewer beside its own directory, then in the directory the install wrote to
# $(DATADIR)/gallery-viewer/helper-directory (read from ../share/gallery-viewer, as the app's other data).
LIBEXECDIR ?= $(PREFIX)/libexec/gallery-viewer
HELPER_DIR := $(LIBEXECDIR)
HELPERS    := gallery-decoder

# The toolchain lives in /opt/swift on our machines; use it even when it is not on PATH (e.g. under sudo).
SWIFT_FOUND := $(or $(shell command -v swift 2>/dev/null),$(wildcard /opt/swift/usr/bin/swift),swift)
SWIFT       ?= $(SWIFT_FOUND)
SWIFT_FLAGS ?=
# SwiftPM's scratch directory; a worktree that keeps its own (e.g. .build-demo) passes BUILD_DIR=.build-demo.
BUILD_DIR   ?= .build
# The AddressSanitizer build of the tests (make test-asan) keeps its own scratch directory.
ASAN_BUILD_DIR ?= .build-asan
SWIFTPM     := $(SWIFT) build --scratch-path $(BUILD_DIR) $(SWIFT_FLAGS)
# Release = what `make install` ships: static Swift stdlib, so the binaries run without the toolchain.
RELEASE_FLAGS := -c release --static-swift-stdlib

DEBUG_BIN   := $(BUILD_DIR)/debug
RELEASE_BIN := $(BUILD_DIR)/release

# The offline demo gallery: users and feeds are committed under data/demo, the images are rendered at build
# time by gallery-demo-images (skipping files that are up to date) and are not in git.
DEMO_DIR        := data/demo
DEMO_IMAGES_DIR := $(DEMO_DIR)/images
DEMO_IMAGES_ARGS ?= --output $(DEMO_IMAGES_DIR)
STAMP_DIR  := $(BUILD_DIR)/stamps
DEMO_STAMP := $(STAMP_DIR)/demo-images

DEMO_USER ?= aurora
RUN_ARGS  ?= --source demo $(DEMO_USER)

# Everything under test runs through .ci/headless: private Xvfb display, private D-Bus session, throwaway
# HOME/XDG dirs, G_DEBUG=fatal-criticals. Set SKIP_INSTALL_CHECK=1 to leave the release build out of `make test`.
HEADLESS := .ci/headless
SKIP_INSTALL_CHECK ?=

INSTALL      ?= install
INSTALL_DATA := $(INSTALL) -m 644
INSTALL_PROG := $(INSTALL) -m 755

# Installed locations (without DESTDIR).
APPS_DIR     := $(DATADIR)/applications
ICONS_DIR    := $(DATADIR)/icons/hicolor
METAINFO_DIR := $(DATADIR)/metainfo
PKG_DATA_DIR := $(DATADIR)/gallery-viewer
PROGRAMS     := gallery-viewer gallery-demo-server
LOCALE_DIR   := $(DATADIR)/locale

# Translations (resources/po/README.md): `make pot` writes the template; the languages listed in LINGUAS are
# compiled at install time into $(LOCALE_DIR)/LANG/LC_MESSAGES/gallery-viewer.mo and merged into the installed
# desktop entry and metainfo. PO_DIR lets the install check use a catalogue of its own; POT_DIR lets the
# resource validation write a fresh template elsewhere and compare.
GETTEXT_DOMAIN := gallery-viewer
PO_DIR   ?= resources/po
POT_DIR  ?= $(PO_DIR)
HASH     := \#
LINGUAS  := $(strip $(shell sed 's/$(HASH).*//' $(PO_DIR)/LINGUAS 2>/dev/null))
# The Swift files that call tr()/trn(). xgettext reads them as C: plain "…" literals and // comments are the
# same in both (a Swift """ literal is not, so translatable texts never use one). Then the desktop entry and
# the metainfo, whose formats xgettext knows itself. No line numbers: moving code does not change the template.
OPEN_PAREN   := (
POT_SOURCES  = $(shell grep -rlE '\btrn?[$(OPEN_PAREN)]' Sources --include='*.swift' | LC_ALL=C sort) \
               resources/$(APP_ID).desktop resources/$(APP_ID).metainfo.xml
XGETTEXT     := xgettext --from-code=UTF-8 --add-comments=TRANSLATORS: --add-location=file \
                --package-name=$(GETTEXT_DOMAIN) --copyright-holder='The Gallery Viewer developers' \
                --msgid-bugs-address=https://github.com/galleryviewer/gallery-viewer/issues

# `sudo make install` runs make as root; building as root would leave root-owned files in .build and
# data/demo/images that the developer can no longer rebuild. Under sudo, build as the user who called sudo.
BUILD_AS := $(if $(and $(SUDO_USER),$(filter-out root,$(SUDO_USER))),sudo -u $(SUDO_USER) -H,)

# Steps share .build (SwiftPM locks it) and the test steps must run in order; swift parallelises internally.
.NOTPARALLEL:
.DEFAULT_GOAL := build
.PHONY: help deps test-deps build build-tests release demo-data run test test-resources test-suites test-unit test-asan test-e2e test-a11y \
        test-translation demo-data-release check-install bench fuzz pot install install-translated install-decoder uninstall clean \
        distclean

help:
	@echo "Targets:"
	@echo "  run            install missing packages, build, render the demo gallery, open the app on it"
	@echo "  test           everything 'run' sets up plus the test tools, then all the tests (see below)"
	@echo "  build          debug build (swift build)            release   release build, static Swift stdlib"
	@echo "  deps           Debian packages to build and run     test-deps  ... plus the test tools"
	@echo "  demo-data      render the demo gallery into $(DEMO_IMAGES_DIR) (stamped: instant when done)"
	@echo "  test-resources validate the desktop entry, metainfo and icons (Tests/Resources/validate.sh)"
	@echo "  test-unit      swift test under Xvfb       test-e2e  Tests/EndToEnd scripts under Xvfb"
	@echo "  test-asan      the XCTest suite built with AddressSanitizer in $(ASAN_BUILD_DIR); fails on errors and leaks"
	@echo "  test-suites    test-unit and test-asan, side by side on two cores or more (as 'test' runs them)"
	@echo "  test-a11y      the window's accessibility tree over AT-SPI (Tests/Accessibility/run.sh)"
	@echo "  test-translation  the window and the command line in a test language (Tests/Translation/run.sh)"
	@echo "  check-install  install into a temp DESTDIR, check the tree and the static linking, smoke-test the installed programs"
	@echo "  bench          speed and memory goals: Tests/Benchmarks/run.sh, release build, under Xvfb; fails on a miss"
	@echo "  fuzz           libFuzzer + AddressSanitizer on every network parser, FUZZ_SECONDS each (Tests/Fuzz/run.sh)"
	@echo "  pot            regenerate the translation template $(PO_DIR)/$(GETTEXT_DOMAIN).pot (and POTFILES)"
	@echo "  install        release build installed under \$$(DESTDIR)\$$(PREFIX); uninstall removes it"
	@echo "  clean          build products, demo images, stamps;  distclean  all of .build"
	@echo "Variables: PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) BINDIR DATADIR LIBEXECDIR SWIFT=$(SWIFT) SWIFT_FLAGS BUILD_DIR=$(BUILD_DIR)"
	@echo "           DEMO_USER=$(DEMO_USER) RUN_ARGS='$(RUN_ARGS)' SKIP_INSTALL_CHECK=$(SKIP_INSTALL_CHECK) BENCH_ARGS=$(BENCH_ARGS)"
	@echo "           FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_ARGS=$(FUZZ_ARGS)"

# --- set-up -------------------------------------------------------------------------------------------------

deps:
	@.ci/install-deps build runtime

test-deps:
	@.ci/install-deps build runtime test

# --- build --------------------------------------------------------------------------------------------------

build: deps
	$(BUILD_AS) $(SWIFTPM)

# The test bundle; also (re)builds the executables, which the end-to-end test uses.
build-tests: deps
	$(BUILD_AS) $(SWIFTPM) --build-tests

# Only the shipped executables: a plain `swift build` would also build the test helpers, which need XCTest.
release: deps
	$(foreach product,$(PROGRAMS) $(HELPERS) gallery-demo-images,$(BUILD_AS) $(SWIFTPM) $(RELEASE_FLAGS) --product $(product) &&) true

# Renders the demo gallery with the generator in $(1) (debug for run/test, release for install, so that an
# install from a fresh clone needs no debug build). Re-renders when there is no stamp, when that generator is
# newer than the stamp, or when an input under data/demo changed; the generator itself skips up-to-date files.
define render_demo
	@if [ ! -f $(DEMO_STAMP) ] || [ ! -d $(DEMO_IMAGES_DIR) ] || [ $(1)/gallery-demo-images -nt $(DEMO_STAMP) ] \
	    || [ -n "$$(find $(DEMO_DIR) -path $(DEMO_IMAGES_DIR) -prune -o -type f -newer $(DEMO_STAMP) -print 2>/dev/null)" ]; \
	then \
	  echo "Rendering the demo gallery into $(DEMO_IMAGES_DIR)"; \
	  $(BUILD_AS) mkdir -p $(DEMO_IMAGES_DIR) $(STAMP_DIR) && \
	  $(BUILD_AS) $(1)/gallery-demo-images $(DEMO_IMAGES_ARGS) && \
	  $(BUILD_AS) touch $(DEMO_STAMP); \
	else \
	  echo "Demo gallery up to date ($(DEMO_IMAGES_DIR))"; \
	fi
endef

demo-data: build
	$(call render_demo,$(DEBUG_BIN))

demo-data-release: release
	$(call render_demo,$(RELEASE_BIN))

# --- run ----------------------------------------------------------------------------------------------------

# Without a display GTK cannot open a window; rather than start an invisible app under Xvfb, say so.
run: build demo-data
	@if [ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
	  echo ""; \
	  echo "make run: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so there is nowhere to open the window."; \
	  echo "  Everything is built; from a desktop session run:  make run   (or $(DEBUG_BIN)/gallery-viewer $(RUN_ARGS))"; \
	  echo "  To try it headless on a virtual display:         make test-deps && xvfb-run -a make run"; \
	  exit 1; \
	fi
	$(DEBUG_BIN)/gallery-viewer $(RUN_ARGS)

# --- tests --------------------------------------------------------------------------------------------------

test: test-resources test-suites test-e2e test-a11y test-translation $(if $(SKIP_INSTALL_CHECK),,check-install)
	@echo "make test: all steps passed$(if $(SKIP_INSTALL_CHECK), (install check skipped),)"

test-resources: test-deps
	Tests/Resources/validate.sh

# Built outside the headless wrapper (SwiftPM keeps caches under the real HOME), run inside it.
test-unit: test-deps build-tests demo-data
	$(UNIT_TESTS)

# test-unit and test-asan, side by side when the process may use two cores or more (`nproc` counts those, so
# `taskset -c 0 make test` runs them one after the other). The plain run mostly waits on its servers and windows
# (about 100 s of CPU in 225 s of a fresh clone's run), so the AddressSanitizer build and run take the time it
# leaves. Their commands are run directly, not as make targets: a sub-make's `swift build` would wait for the
# lock the running `swift test` holds on $(BUILD_DIR). The ASan run's output goes to $(ASAN_LOG), shown at its end.
ASAN_LOG := $(ASAN_BUILD_DIR)/test-asan.log
UNIT_TESTS = $(HEADLESS) $(SWIFT) test --skip-build --scratch-path $(BUILD_DIR) $(SWIFT_FLAGS)
ASAN_ENV = SWIFT=$(SWIFT) SWIFT_FLAGS="$(SWIFT_FLAGS)" ASAN_BUILD_DIR=$(ASAN_BUILD_DIR) DEBUG_BUILD_DIR=$(BUILD_DIR)
ASAN_TESTS = $(BUILD_AS) env $(ASAN_ENV) bash Tests/AddressSanitizer/run.sh
# Beside the plain run, which `build-tests` preceded: the helpers it starts are built (see run.sh).
ASAN_TESTS_BESIDE = $(BUILD_AS) env $(ASAN_ENV) DEBUG_PRODUCTS_BUILT=1 bash Tests/AddressSanitizer/run.sh
test-suites: test-deps build-tests demo-data
	@if [ "$$(nproc)" -lt 2 ]; then \
	  echo "$(UNIT_TESTS)"; $(UNIT_TESTS) && { echo "test-asan: Tests/AddressSanitizer/run.sh"; $(ASAN_TESTS); }; \
	else \
	  mkdir -p $(ASAN_BUILD_DIR); \
	  echo "test-asan runs beside test-unit ($$(nproc) cores); its output goes to $(ASAN_LOG)"; \
	  $(ASAN_TESTS_BESIDE) > $(ASAN_LOG) 2>&1 & asan=$$!; \
	  echo "$(UNIT_TESTS)"; $(UNIT_TESTS); unit=$$?; \
	  wait $$asan; asan=$$?; \
	  echo "--- the end of $(ASAN_LOG):"; tail -n 30 $(ASAN_LOG); \
	  [ $$unit -eq 0 ] || echo "test-suites: test-unit failed (exit $$unit)"; \
	  [ $$asan -eq 0 ] || echo "test-suites: test-asan failed (exit $$asan); all of its output is in $(ASAN_LOG)"; \
	  [ $$unit -eq 0 ] && [ $$asan -eq 0 ]; \
	fi

# The same tests built with -sanitize=address in $(ASAN_BUILD_DIR) and run headless (Tests/AddressSanitizer/run.sh):
# memory errors stop the run, leaks fail it unless lsan-suppressions.txt shows them to be a system library's.
# Built outside the headless wrapper for the same reason as test-unit; needs the demo images as test-unit does.
test-asan: test-deps demo-data
	$(ASAN_TESTS)

# Each script in a headless session of its own (its own throwaway HOME and cache): run.sh drives the window and
# the command line, offline.sh the disk cache across launches, media.sh videos and sounds, desktop.sh what the
# large view hands to the desktop (background, Open With, print), habits.sh the slideshow and a link dropped
# from another window (gallery-test-drag-source, which the build puts beside the app), selection.sh several
# items saved at once, check.sh `--check` of followed galleries against a growing demo server (no window),
# following.sh following in the window (Ctrl+D, Check Now finding the demo's growth, the New view, unfollow).
test-e2e: test-deps build-tests demo-data
	@for script in run.sh offline.sh media.sh desktop.sh habits.sh selection.sh check.sh following.sh; do \
	  echo "GALLERY_VIEWER=$(DEBUG_BIN)/gallery-viewer GALLERY_DEMO_SERVER=$(DEBUG_BIN)/gallery-demo-server $(HEADLESS) Tests/EndToEnd/$$script"; \
	  GALLERY_VIEWER=$(CURDIR)/$(DEBUG_BIN)/gallery-viewer GALLERY_DEMO_SERVER=$(CURDIR)/$(DEBUG_BIN)/gallery-demo-server \
	    $(HEADLESS) bash Tests/EndToEnd/$$script || exit 1; \
	done

# Its own accessibility bus inside the headless session (.ci/headless turns the bridge off for the others).
test-a11y: test-deps build-tests demo-data
	GALLERY_VIEWER=$(CURDIR)/$(DEBUG_BIN)/gallery-viewer GALLERY_DEMO_SERVER=$(CURDIR)/$(DEBUG_BIN)/gallery-demo-server \
	  $(HEADLESS) bash Tests/Accessibility/run.sh

# A made-up language compiled from data/fixtures/translation/xx.po: the window's and the command line's texts in
# it, plural forms and placeholders included (its own AT-SPI bus, as test-a11y).
test-translation: test-deps build-tests demo-data
	GALLERY_VIEWER=$(CURDIR)/$(DEBUG_BIN)/gallery-viewer GALLERY_DEMO_SERVER=$(CURDIR)/$(DEBUG_BIN)/gallery-demo-server \
	  $(HEADLESS) bash Tests/Translation/run.sh

# Times and checks `make install` (release build included) into a temp DESTDIR, and runs a smoke pass of the
# installed programs under $(HEADLESS) (Tests/Install/smoke.sh: --list, --download, a search, the large view).
check-install: test-deps
	Tests/Install/check.sh

# Speed and memory goals (never timed unit tests). run.sh builds gallery-benchmarks with the release flags
# outside the headless wrapper (SwiftPM's caches are under the real HOME), then runs each scenario inside it;
# it fails when a goal is missed. BENCH_ARGS picks scenarios, e.g. BENCH_ARGS=memory. A run of them all writes
# its goals, the machine and the date to docs/PERFORMANCE.md (PERFORMANCE_DOC=PATH: any run, to PATH).
BENCH_ARGS ?=
bench: test-deps release demo-data-release
	SWIFT=$(SWIFT) BUILD_DIR=$(BUILD_DIR) SWIFT_FLAGS="$(SWIFT_FLAGS)" bash Tests/Benchmarks/run.sh $(BENCH_ARGS)

# libFuzzer with AddressSanitizer on every parser the network feeds (Tests/Fuzz/run.sh): not part of `make test`.
# FUZZ_SECONDS per target (default 60: seven minutes for the seven targets); FUZZ_ARGS picks targets, e.g.
# FUZZ_ARGS=FuzzImageHeader. Built in .build-fuzz, apart from the normal build; a crash fails the run and leaves
# its input in .build-fuzz/findings/TARGET.
FUZZ_SECONDS ?= 60
FUZZ_ARGS ?=
fuzz: deps
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) bash Tests/Fuzz/run.sh $(FUZZ_ARGS)

# --- translations -------------------------------------------------------------------------------------------

# POTFILES says which files the template was made from; Tests/Resources/validate.sh fails when either is stale.
pot: deps
	@mkdir -p $(POT_DIR)
	@printf '%s\n' $(POT_SOURCES) > $(POT_DIR)/POTFILES
	@$(XGETTEXT) --language=C --keyword --keyword=tr --keyword=trn:1,2 -o $(POT_DIR)/$(GETTEXT_DOMAIN).pot \
	  $(filter %.swift,$(POT_SOURCES))
	@$(XGETTEXT) --join-existing -o $(POT_DIR)/$(GETTEXT_DOMAIN).pot $(filter-out %.swift,$(POT_SOURCES))
	@sed -i '1s/.*/# Translation template of Gallery Viewer: made by `make pot`, do not edit./' $(POT_DIR)/$(GETTEXT_DOMAIN).pot
	@echo "pot: $$(($$(grep -c '^msgid "' $(POT_DIR)/$(GETTEXT_DOMAIN).pot) - 1)) texts from $$(wc -l <$(POT_DIR)/POTFILES) files in $(POT_DIR)/$(GETTEXT_DOMAIN).pot"

# --- install ------------------------------------------------------------------------------------------------

# Caches are refreshed only for a real install (no DESTDIR: a packager's staging tree gets them from the
# package's triggers), and only if the tools exist; a missing tool never fails the install.
define refresh_caches
	@if [ -z "$(DESTDIR)" ]; then \
	  if command -v gtk-update-icon-cache >/dev/null 2>&1; then gtk-update-icon-cache -q -f -t $(ICONS_DIR) || true; fi; \
	  if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q $(APPS_DIR) || true; fi; \
	fi
endef

install: release demo-data-release install-translated install-decoder
	$(INSTALL) -d $(DESTDIR)$(BINDIR) \
	  $(DESTDIR)$(ICONS_DIR)/scalable/apps $(DESTDIR)$(ICONS_DIR)/symbolic/apps $(DESTDIR)$(PKG_DATA_DIR)/demo
	$(INSTALL_PROG) $(addprefix $(RELEASE_BIN)/,$(PROGRAMS)) $(DESTDIR)$(BINDIR)/
	$(INSTALL_DATA) resources/$(APP_ID).svg $(DESTDIR)$(ICONS_DIR)/scalable/apps/
	$(INSTALL_DATA) resources/$(APP_ID)-symbolic.svg $(DESTDIR)$(ICONS_DIR)/symbolic/apps/
	$(if $(wildcard resources/*.css),$(INSTALL_DATA) $(wildcard resources/*.css) $(DESTDIR)$(PKG_DATA_DIR)/)
	@# The whole demo tree (users.json, feeds, rendered images), without dotfiles; readable by everyone.
	cd $(DEMO_DIR) && find . -name '.*' ! -name . -prune -o -type d -print | \
	  while read -r d; do $(INSTALL) -d "$(DESTDIR)$(PKG_DATA_DIR)/demo/$$d" || exit 1; done
	cd $(DEMO_DIR) && find . -name '.*' ! -name . -prune -o -type f -print | \
	  while read -r f; do $(INSTALL_DATA) "$$f" "$(DESTDIR)$(PKG_DATA_DIR)/demo/$$f" || exit 1; done
	$(refresh_caches)

# The decoder helper, and where it is for the app (the path it runs from: without DESTDIR).
install-decoder: release
	$(INSTALL) -d $(DESTDIR)$(HELPER_DIR) $(DESTDIR)$(PKG_DATA_DIR)
	$(INSTALL_PROG) $(addprefix $(RELEASE_BIN)/,$(HELPERS)) $(DESTDIR)$(HELPER_DIR)/
	printf '%s\n' '$(HELPER_DIR)' >$(DESTDIR)$(PKG_DATA_DIR)/helper-directory
	chmod 644 $(DESTDIR)$(PKG_DATA_DIR)/helper-directory

# The texts a language changes: the compiled catalogues, and the desktop entry and metainfo with the
# translations merged in (msgfmt reads PO_DIR/LINGUAS). Without languages both are installed as they are.
TRANSLATED_DIR := $(BUILD_DIR)/translated
install-translated: $(if $(LINGUAS),deps)
	$(INSTALL) -d $(DESTDIR)$(APPS_DIR) $(DESTDIR)$(METAINFO_DIR)
ifeq ($(LINGUAS),)
	$(INSTALL_DATA) resources/$(APP_ID).desktop $(DESTDIR)$(APPS_DIR)/
	$(INSTALL_DATA) resources/$(APP_ID).metainfo.xml $(DESTDIR)$(METAINFO_DIR)/
else
	$(BUILD_AS) mkdir -p $(TRANSLATED_DIR)
	$(foreach lang,$(LINGUAS),$(BUILD_AS) msgfmt --check -o $(TRANSLATED_DIR)/$(lang).mo $(PO_DIR)/$(lang).po && \
	  $(INSTALL) -d $(DESTDIR)$(LOCALE_DIR)/$(lang)/LC_MESSAGES && \
	  $(INSTALL_DATA) $(TRANSLATED_DIR)/$(lang).mo $(DESTDIR)$(LOCALE_DIR)/$(lang)/LC_MESSAGES/$(GETTEXT_DOMAIN).mo &&) true
	$(BUILD_AS) msgfmt --desktop -d $(PO_DIR) --template resources/$(APP_ID).desktop -o $(TRANSLATED_DIR)/$(APP_ID).desktop
	$(BUILD_AS) msgfmt --xml -d $(PO_DIR) --template resources/$(APP_ID).metainfo.xml -o $(TRANSLATED_DIR)/$(APP_ID).metainfo.xml
	$(INSTALL_DATA) $(TRANSLATED_DIR)/$(APP_ID).desktop $(DESTDIR)$(APPS_DIR)/
	$(INSTALL_DATA) $(TRANSLATED_DIR)/$(APP_ID).metainfo.xml $(DESTDIR)$(METAINFO_DIR)/
endif

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(PROGRAMS))
	@# LIBEXECDIR may be a directory shared with other programs: only the helpers go, then the directory if empty.
	rm -f $(addprefix $(DESTDIR)$(HELPER_DIR)/,$(HELPERS))
	rmdir $(DESTDIR)$(HELPER_DIR) 2>/dev/null || true
	rm -f $(foreach lang,$(LINGUAS),$(DESTDIR)$(LOCALE_DIR)/$(lang)/LC_MESSAGES/$(GETTEXT_DOMAIN).mo)
	rm -f $(DESTDIR)$(APPS_DIR)/$(APP_ID).desktop $(DESTDIR)$(METAINFO_DIR)/$(APP_ID).metainfo.xml
	rm -f $(DESTDIR)$(ICONS_DIR)/scalable/apps/$(APP_ID).svg $(DESTDIR)$(ICONS_DIR)/symbolic/apps/$(APP_ID)-symbolic.svg
	rm -rf $(DESTDIR)$(PKG_DATA_DIR)
	$(refresh_caches)

# --- clean --------------------------------------------------------------------------------------------------

clean:
	-$(SWIFT) package --scratch-path $(BUILD_DIR) clean
	rm -rf $(DEMO_IMAGES_DIR) $(STAMP_DIR)

# Also the fetched package checkouts and every build configuration.
distclean: clean
	rm -rf $(BUILD_DIR)
