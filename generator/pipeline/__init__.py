"""`rulepress build` and `rulepress export`: check, render what changed, swap the new build in only on success.

* **Locked**: one build at a time per output folder (``flock``); a second says so and exits.
* **Atomic**: everything is written to a staging folder beside ``build/`` and swapped in
  by two renames once all of it succeeded; a failure, Ctrl-C or kill -9 leaves the previous
  build as it was, and the next build removes a killed build's staging folder.
* **Never loses data**: ``--out`` must be a folder this tool made (it holds its manifest, or it is an
  export's) or a new or empty one; never the project, a folder above it, or one with other files. ``rulepress
  export`` is written the same way (locked, staged, swapped), its folder whole (this export's files alone); a
  build writes anew the ``build/export/`` it finds, for the audiences it is for, so it never holds older rules.
* **No orphans**: workers die with the build (``PR_SET_PDEATHSIG`` on Linux, else they watch
  it), and every site is built in a fresh process (Sphinx registers roles process-wide).
* **Incremental**: every PDF is keyed by a hash of its HTML, the stylesheets and
  assets it links (the project's own, else the package defaults) and the generator's
  code; an unchanged key reuses the previous file (a hard link), so a no-change build
  renders nothing. The site is keyed likewise as a whole and, when
  it changed, rebuilt by Sphinx's own incremental build, whose cache is kept in the project
  (``.rulepress-cache/out-<hash of the out folder>/``): each directive depends on a hash of
  what it shows, so Sphinx reads again only the pages a change shows on, and every page whose
  bytes did not change stays the previous build's very file. That cache holds pickles (Sphinx's
  environment, Jinja's compiled templates): it is sealed by this process after a successful build
  and handed to Sphinx again only if it verifies (``cache_seal``), else removed first.

One module a job:

* ``request``: what a build is asked for (``BuildRequest``) and what ``rulepress serve`` plugs in (``BuildHooks``).
* ``build``: the commands, ``run_build`` and ``run_export``: checks, then the steps below, and what they print.
* ``guard``: the output folder a build may replace (``check_out``) and the lock on it (``build_lock``).
* ``staging``: the staging folder, its manifest, and the swap that puts it in place.
* ``plan``: what to rebuild and what to keep (``Builder``), and where Sphinx's caches live.
* ``workers``: the process pool that renders the sites and PDFs, and workers that end with the build.
* ``search_index``: Pagefind's index of a copy of the build, swapped in after the page (for ``serve``).

This package imports none of its modules here: the command line imports ``request`` without Sphinx.
"""
