/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every user action, once. This one list makes the enum, the handler each
 * action runs, the names a config file will use, the default key bindings,
 * the status-line hints, the help overlay and the man page's KEYS table
 * (`nurseshark --keys-table`), so none of them can disagree with another.
 *
 * ACTION(id, name, any, list, graph, hint, help, handler, arg)
 *   id     NS_ACT_<id>
 *   name   the action's name in a config file
 *   any    keys that run it whichever pane has the focus
 *   list   keys that run it only when the list has the focus
 *   graph  keys that run it only when the graph has the focus
 *   hint   short label for the status line ("" for none)
 *   help   one line for the help overlay and the man page
 *   handler  void handler(struct ns_tui *t, int arg): what the action does,
 *          defined in the file of its job (view actions in actions.c, the
 *          filter shortcuts in shortcuts.c, the pickers in picker.c, ...)
 *   arg    passed to the handler, so that one handler serves both
 *          directions of a move (-1, 1) or both markers
 *
 * Keys are written in the --keys syntax (see keys.c), separated by spaces;
 * a word of two keys ("'a") is a sequence. The pane's own keys win over
 * the "any" keys: h is help in the list but "left" in the graph.
 */
#ifndef NS_TUI_ACTIONS_H
#define NS_TUI_ACTIONS_H

#define NS_TUI_ACTIONS(ACTION)								\
	ACTION(QUIT, "quit", "q", "", "", "quit", "Quit",				\
	       ns_tui_act_quit, 0)							\
	ACTION(HELP, "help", "<F1>", "h", "", "help",					\
	       "Show this help (its keys, at its end, scroll it; any other key closes it)", \
	       ns_tui_help_open, 0)							\
	ACTION(SWITCH_FOCUS, "switch-focus", "<Tab> <S-Tab>", "", "", "focus",		\
	       "Move the focus between the graph and the list",				\
	       ns_tui_act_switch_focus, 0)						\
	ACTION(MOVE_UP, "move-up", "", "<Up> k <C-p>", "", "",				\
	       "Select the previous event",						\
	       ns_tui_act_move, -1)							\
	ACTION(MOVE_DOWN, "move-down", "", "<Down> j <C-n>", "", "",			\
	       "Select the next event",							\
	       ns_tui_act_move, 1)							\
	ACTION(PAGE_UP, "page-up", "", "<PageUp> <C-b>", "", "",			\
	       "Scroll the list up by a page",						\
	       ns_tui_act_page, -1)							\
	ACTION(PAGE_DOWN, "page-down", "", "<PageDown> <C-f> <Space>", "", "",		\
	       "Scroll the list down by a page",					\
	       ns_tui_act_page, 1)							\
	ACTION(MOVE_FIRST, "first-event", "<Home> g", "", "", "",			\
	       "Select the first event",						\
	       ns_tui_act_first, 0)							\
	ACTION(MOVE_LAST, "last-event", "<End> G", "", "", "",				\
	       "Select the last event; in nurseshark live, follow the newest again",	\
	       ns_tui_act_last, 0)							\
	ACTION(SCROLL_LEFT, "scroll-left", "", "<Left>", "", "",			\
	       "Scroll the Info column to the left",					\
	       ns_tui_act_scroll_info, -1)						\
	ACTION(SCROLL_RIGHT, "scroll-right", "", "<Right>", "", "",			\
	       "Scroll the Info column to the right (long lines are cut at the edge)",	\
	       ns_tui_act_scroll_info, 1)						\
	ACTION(CURSOR_LEFT, "cursor-left", "", "", "<Left> h", "",			\
	       "Move the graph cursor one column to the left",				\
	       ns_tui_act_cursor_col, -1)						\
	ACTION(CURSOR_RIGHT, "cursor-right", "", "", "<Right> l", "",			\
	       "Move the graph cursor one column to the right",				\
	       ns_tui_act_cursor_col, 1)						\
	ACTION(CURSOR_UP, "cursor-up", "", "", "<Up> k", "",				\
	       "Move the graph cursor to the CPU above (the rows scroll)",		\
	       ns_tui_act_cursor_row, -1)						\
	ACTION(CURSOR_DOWN, "cursor-down", "", "", "<Down> j", "",			\
	       "Move the graph cursor to the CPU below (the rows scroll)",		\
	       ns_tui_act_cursor_row, 1)						\
	ACTION(SELECT_NEAREST, "select-nearest", "", "", "<Enter> <Space>", "",		\
	       "Select the event of the cursor's CPU nearest to the cursor's column",	\
	       ns_tui_act_select_nearest, 0)						\
	ACTION(ZOOM_IN, "zoom-in", "+ =", "", "", "zoom",				\
	       "Zoom in by 2 around the focus (graph: the cursor; list: marker or selection)", \
	       ns_tui_act_zoom, 1)							\
	ACTION(ZOOM_OUT, "zoom-out", "-", "", "", "out",				\
	       "Zoom out by 2 around the same focus",					\
	       ns_tui_act_zoom, -1)							\
	ACTION(ZOOM_MAX, "zoom-max", "Z", "", "", "",					\
	       "Zoom all the way in (1 ns per column) around the focus",		\
	       ns_tui_act_zoom, 64)							\
	ACTION(ZOOM_FULL, "zoom-full", "0 z", "", "", "",				\
	       "Zoom all the way out: the whole trace",					\
	       ns_tui_act_zoom_full, 0)							\
	ACTION(ZOOM_MARKERS, "zoom-markers", "r", "", "", "",				\
	       "Zoom to the range between markers A and B",				\
	       ns_tui_act_zoom_markers, 0)						\
	ACTION(PAN_LEFT, "pan-left", "[ <S-Left>", "", "", "",				\
	       "Move the graph window one column back in time",				\
	       ns_tui_act_pan, -1)							\
	ACTION(PAN_RIGHT, "pan-right", "] <S-Right>", "", "", "",			\
	       "Move the graph window one column forward in time",			\
	       ns_tui_act_pan, 1)							\
	ACTION(PAN_PAGE_LEFT, "pan-page-left", "<lt> { <C-Left>", "", "<PageUp>", "",	\
	       "Move the graph window back by its width",				\
	       ns_tui_act_pan_page, -1)							\
	ACTION(PAN_PAGE_RIGHT, "pan-page-right", "> } <C-Right>", "", "<PageDown>", "",	\
	       "Move the graph window forward by its width",				\
	       ns_tui_act_pan_page, 1)							\
	ACTION(SET_MARKER_A, "set-marker-a", "a", "", "", "A",				\
	       "Put marker A on the selected event (in the graph: on the cursor row's "	\
	       "event nearest the cursor, which is selected); A becomes the active marker", \
	       ns_tui_act_set_marker, NS_MARKER_A)					\
	ACTION(SET_MARKER_B, "set-marker-b", "b", "", "", "B",				\
	       "Put marker B where a puts A; B becomes the active marker",		\
	       ns_tui_act_set_marker, NS_MARKER_B)					\
	ACTION(GOTO_MARKER_A, "goto-marker-a", "A 'a `a", "", "", "",			\
	       "Select the event of marker A and bring it into the graph",		\
	       ns_tui_act_goto_marker, NS_MARKER_A)					\
	ACTION(GOTO_MARKER_B, "goto-marker-b", "B 'b `b", "", "", "",			\
	       "Select the event of marker B and bring it into the graph",		\
	       ns_tui_act_goto_marker, NS_MARKER_B)					\
	ACTION(SWITCH_MARKER, "switch-marker", "m", "", "", "",				\
	       "Make the other marker the active one (zoom keeps it in place)",		\
	       ns_tui_act_switch_marker, 0)						\
	ACTION(CLEAR_MARKER, "clear-marker", "x", "", "", "",				\
	       "Remove the active marker",						\
	       ns_tui_act_clear_marker, 0)						\
	ACTION(TOGGLE_FOLLOW, "toggle-follow", "f", "", "", "follow",			\
	       "Toggle \"graph follows\": selecting an event brings it into the graph",	\
	       ns_tui_act_toggle_follow, 0)						\
	ACTION(LIVE_PAUSE, "live-pause", "<Space>", "", "", "",			\
	       "nurseshark live: pause or resume the screen (the recording goes on); "	\
	       "before the pane's own keys there",					\
	       ns_tui_act_live_pause, 0)						\
	ACTION(REDRAW, "redraw", "<C-l>", "", "", "",					\
	       "Redraw the whole screen",						\
	       ns_tui_act_redraw, 0)							\
	ACTION(SEARCH, "search", "/", "", "", "",					\
	       "Search forward: /TEXT, or /COLUMN OP TEXT with COLUMN task, pid, cpu, "	\
	       "event, info, stream (a buffer's name, top for the top one) or any and " \
	       "OP : (contains) = (is) ! (does not contain) "				\
	       "~ (regular expression): /task=gzip",					\
	       ns_tui_act_prompt, NS_PROMPT_SEARCH)					\
	ACTION(SEARCH_BACK, "search-backward", "?", "", "", "",				\
	       "Search backward, in the syntax of /",					\
	       ns_tui_act_prompt, NS_PROMPT_SEARCH_BACK)				\
	ACTION(SEARCH_NEXT, "search-next", "n", "", "", "",				\
	       "Repeat the last search in its direction (wraps at the end, as vim)",	\
	       ns_tui_repeat_search, 0)							\
	ACTION(SEARCH_PREV, "search-prev", "N", "", "", "",				\
	       "Repeat the last search in the other direction",				\
	       ns_tui_repeat_search, 1)							\
	ACTION(COMMAND, "command", ":", "", "", "",					\
	       "Command line (Up/Down: history; Tab completes a name): goto SECS, N, "	\
	       "filter EXPR, show|hide ..., save-session, ...; the commands are listed below", \
	       ns_tui_act_prompt, NS_PROMPT_COMMAND)					\
	ACTION(NEXT_TASK, "next-task-event", "J", "", "", "",				\
	       "Select the next event of the selected event's task",			\
	       ns_tui_act_jump_task, 1)							\
	ACTION(PREV_TASK, "prev-task-event", "K", "", "", "",				\
	       "Select the previous event of the same task",				\
	       ns_tui_act_jump_task, -1)						\
	ACTION(NEXT_CPU, "next-cpu-event", ")", "", "", "",				\
	       "Select the next event on the same CPU",					\
	       ns_tui_act_jump_cpu, 1)							\
	ACTION(PREV_CPU, "prev-cpu-event", "(", "", "", "",				\
	       "Select the previous event on the same CPU",				\
	       ns_tui_act_jump_cpu, -1)							\
	ACTION(NEXT_TYPE, "next-type-event", "*", "", "", "",				\
	       "Select the next event of the same type (as vim's * and #)",		\
	       ns_tui_act_jump_type, 1)							\
	ACTION(PREV_TYPE, "prev-type-event", "#", "", "", "",				\
	       "Select the previous event of the same type",				\
	       ns_tui_act_jump_type, -1)						\
	ACTION(ONLY_TASK, "only-task", "t", "", "", "",					\
	       "Filter: show only the selected event's task",				\
	       ns_tui_act_filter_task, NS_FILTER_SHOW)					\
	ACTION(HIDE_TASK, "hide-task", "T", "", "", "",					\
	       "Filter: hide the selected event's task",				\
	       ns_tui_act_filter_task, NS_FILTER_HIDE)					\
	ACTION(ONLY_EVENT, "only-event", "e", "", "", "",				\
	       "Filter: show only events of the selected event's type",			\
	       ns_tui_act_filter_event, NS_FILTER_SHOW)					\
	ACTION(HIDE_EVENT, "hide-event", "E", "", "", "",				\
	       "Filter: hide events of the selected event's type",			\
	       ns_tui_act_filter_event, NS_FILTER_HIDE)					\
	ACTION(ONLY_CPU, "only-cpu", "c", "", "", "",					\
	       "Filter: show only the selected event's CPU",				\
	       ns_tui_act_filter_cpu, NS_FILTER_SHOW)					\
	ACTION(ONLY_STREAM, "only-stream", "y", "", "", "",				\
	       "Filter: show only the selected event's stream (its buffer: the top one "	\
	       "or an instance)",							\
	       ns_tui_act_filter_stream, NS_FILTER_SHOW)				\
	ACTION(HIDE_STREAM, "hide-stream", "Y", "", "", "",				\
	       "Filter: hide the selected event's stream",				\
	       ns_tui_act_filter_stream, NS_FILTER_HIDE)				\
	ACTION(CLEAR_FILTERS, "clear-filters", "u", "", "", "",				\
	       "Clear every filter (task rows and hidden CPU rows stay)",		\
	       ns_tui_act_clear_filters, 0)						\
	ACTION(FILTER_WHERE, "filter-where", "w", "", "", "",				\
	       "Where new filters apply: list and graph, the list only, the graph only", \
	       ns_tui_act_filter_where, 0)						\
	ACTION(TASK_ROW, "task-row", "R", "", "", "",					\
	       "Add (or remove) a graph row for the selected event's task",		\
	       ns_tui_act_task_row, 0)							\
	ACTION(GOTO_WAKER, "goto-waker", "V", "", "", "",				\
	       "Select the event that woke the selected event's task: its sched_waking, " \
	       "on the waker's CPU (the wakeup where none was recorded)",		\
	       ns_tui_act_sched_jump, NS_TUI_SCHED_WAKER)				\
	ACTION(GOTO_WAKEUP, "goto-wakeup", "W", "", "", "",				\
	       "Select the sched_wakeup of the task's run (a switch-in's, a wakeup's " \
	       "own; for other events, the run under way or waited for)",		\
	       ns_tui_act_sched_jump, NS_TUI_SCHED_WAKEUP)				\
	ACTION(GOTO_SWITCH_IN, "goto-switch-in", "I", "", "", "",			\
	       "Select the sched_switch that ran the task (that run)",			\
	       ns_tui_act_sched_jump, NS_TUI_SCHED_SWITCH_IN)				\
	ACTION(GOTO_SWITCH_OUT, "goto-switch-out", "O", "", "", "",			\
	       "Select the sched_switch that took the task off the CPU (that run)",	\
	       ns_tui_act_sched_jump, NS_TUI_SCHED_SWITCH_OUT)				\
	ACTION(LATENCY_MARKERS, "latency-markers", "L", "", "", "",			\
	       "Markers A and B on the wakeup latency around the selected event (the " \
	       "wakeup and the switch-in): B-A reads it",				\
	       ns_tui_act_latency_markers, 0)						\
	ACTION(NEXT_DROP, "next-drop", "d", "", "", "",					\
	       "Select the next event after lost events (report's [N EVENTS DROPPED], " \
	       "a ! on its CPU's row)",							\
	       ns_tui_act_drop_jump, 1)							\
	ACTION(PREV_DROP, "prev-drop", "D", "", "", "",					\
	       "Select the previous event after lost events",				\
	       ns_tui_act_drop_jump, -1)						\
	ACTION(PICK_TASKS, "pick-tasks", "p <F2>", "", "", "",				\
	       "Task picker: every task, its events and CPU time; rows and filters",	\
	       ns_tui_picker_open, NS_PICK_TASKS)					\
	ACTION(PICK_EVENTS, "pick-events", "s <F3>", "", "", "",			\
	       "Event picker: systems and events, to show only or hide",		\
	       ns_tui_picker_open, NS_PICK_EVENTS)					\
	ACTION(PICK_CPUS, "pick-cpus", "C <F4>", "", "", "",				\
	       "CPU picker: show or hide CPU rows, filter by CPU",			\
	       ns_tui_picker_open, NS_PICK_CPUS)					\
	ACTION(PICK_FILTERS, "pick-filters", "F <F5>", "", "", "",			\
	       "The filters in force, to remove one",					\
	       ns_tui_picker_open, NS_PICK_FILTERS)					\
	ACTION(PICK_STREAMS, "pick-streams", "P <F6>", "", "", "",			\
	       "Stream picker: the buffers of the file (the top one, each instance), "	\
	       "to hide or show only",							\
	       ns_tui_picker_open, NS_PICK_STREAMS)					\
	ACTION(STATS, "statistics", "S", "", "", "",					\
	       "Statistics over the A-B range (the window without both markers): tasks, " \
	       "CPUs, event types; with the list's filters",				\
	       ns_tui_stats_open, 0)							\
	ACTION(GRAPH_BIGGER, "graph-bigger", "<C-w>+", "", "", "",			\
	       "Give the graph pane one more row (the list one fewer)",			\
	       ns_tui_graph_resize, 1)							\
	ACTION(GRAPH_SMALLER, "graph-smaller", "<C-w>-", "", "", "",			\
	       "Give the graph pane one row fewer",					\
	       ns_tui_graph_resize, -1)							\
	ACTION(FRESH_START, "fresh-start", "U", "", "", "",				\
	       "Start fresh: forget the session restored at start (view, filters)",	\
	       ns_tui_fresh_start, 0)							\
	ACTION(EVENT_DETAIL, "event-detail", "i", "<Enter>", "", "",			\
	       "The selected event in detail: report's whole line, the latency flags in " \
	       "words, its buffer, page and CPU, every field raw and as printed",	\
	       ns_tui_detail_open, 0)							\
	ACTION(RECORD, "record", "<C-r>", "", "", "",					\
	       "Record screen: record the running kernel's events (or watch them live) " \
	       "and open the new trace",						\
	       ns_tui_record_open, 0)

/*
 * The overlays' own actions, bound in their own scope ([keys.picker],
 * [keys.help] in config.ini) and shown in the help and the man page under
 * their overlay. A key an overlay does not bind goes on as before: typed
 * into a picker's narrowing text; any other key closes the help.
 *
 * OVERLAY(id, name, scope, keys, legend, help, handler, arg)
 *   scope  PICKER, HELP, STATS, RECORD or JOB
 *   legend the picker's bottom line: a label for each picker, by
 *          enum ns_tui_picker_kind (tasks,events,cpus,filters,streams); an empty
 *          label leaves the key out of that picker's line
 */
#define NS_TUI_OVERLAY_ACTIONS(OVERLAY)							\
	OVERLAY(PICK_UP, "picker-up", PICKER, "<Up>", "",				\
		"Select the item above", ns_tui_pick_move, -1)				\
	OVERLAY(PICK_DOWN, "picker-down", PICKER, "<Down>", "",				\
		"Select the item below", ns_tui_pick_move, 1)				\
	OVERLAY(PICK_PAGE_UP, "picker-page-up", PICKER, "<PageUp>", "",			\
		"Up by a page", ns_tui_pick_page, -1)					\
	OVERLAY(PICK_PAGE_DOWN, "picker-page-down", PICKER, "<PageDown>", "",		\
		"Down by a page", ns_tui_pick_page, 1)					\
	OVERLAY(PICK_FIRST, "picker-first", PICKER, "<Home>", "",			\
		"Select the first item", ns_tui_pick_end, -1)				\
	OVERLAY(PICK_LAST, "picker-last", PICKER, "<End>", "",				\
		"Select the last item", ns_tui_pick_end, 1)				\
	OVERLAY(PICK_UNNARROW, "picker-unnarrow", PICKER, "<BS>", "",			\
		"Take the last character off the text typed to narrow the list",	\
		ns_tui_pick_unnarrow, 0)						\
	OVERLAY(PICK_ENTER, "picker-enter", PICKER, "<Enter>", "row,only,row,remove,hide",	\
		"Tasks: add or remove the task's row; events: show only, again to stop; " \
		"CPUs: show or hide the CPU's row; filters: remove the filter; streams: " \
		"hide, again to stop",							\
		ns_tui_pick_act, NS_ACT_PICK_ENTER)					\
	OVERLAY(PICK_ONLY, "picker-only", PICKER, "<C-o>", "only,only,only,,only",		\
		"Show only this (a filter), again to remove it",			\
		ns_tui_pick_act, NS_ACT_PICK_ONLY)					\
	OVERLAY(PICK_HIDE, "picker-hide", PICKER, "<C-x>", "hide,hide,hide,remove,hide",	\
		"Hide this, again to remove it; in the filters picker: remove the filter", \
		ns_tui_pick_act, NS_ACT_PICK_HIDE)					\
	OVERLAY(PICK_REMOVE, "picker-remove", PICKER, "<Del>", ",,,remove,",		\
		"In the filters picker: remove the filter",				\
		ns_tui_pick_act, NS_ACT_PICK_REMOVE)					\
	OVERLAY(PICK_SORT, "picker-sort", PICKER, "<C-t>", "sort,,,,",			\
		"Tasks: sort by pid, comm, events, CPU time",				\
		ns_tui_pick_sort, 0)							\
	OVERLAY(PICK_WHERE, "picker-where", PICKER, "<Tab>", "where,where,where,where,where",	\
		"Where new filters apply: list and graph, the list only, the graph only", \
		ns_tui_pick_where, 0)							\
	OVERLAY(PICK_CLOSE, "picker-close", PICKER, "<Esc>", "close,close,close,close,close",	\
		"Close the picker", ns_tui_pick_close, 0)				\
	OVERLAY(HELP_UP, "help-up", HELP, "<Up> k <C-p>", "",				\
		"Scroll the help up a line", ns_tui_help_scroll, -1)			\
	OVERLAY(HELP_DOWN, "help-down", HELP, "<Down> j <C-n>", "",			\
		"Scroll the help down a line", ns_tui_help_scroll, 1)			\
	OVERLAY(HELP_PAGE_UP, "help-page-up", HELP, "<PageUp> <C-b>", "",		\
		"Scroll the help up a page", ns_tui_help_page, -1)			\
	OVERLAY(HELP_PAGE_DOWN, "help-page-down", HELP, "<PageDown> <C-f> <Space>", "",	\
		"Scroll the help down a page", ns_tui_help_page, 1)			\
	OVERLAY(HELP_TOP, "help-top", HELP, "<Home> g", "",				\
		"The help's first line", ns_tui_help_end, -1)				\
	OVERLAY(HELP_BOTTOM, "help-bottom", HELP, "<End> G", "",			\
		"The help's last lines", ns_tui_help_end, 1)				\
	OVERLAY(STATS_UP, "stats-up", STATS, "<Up> k", "",				\
		"Select the row above", ns_tui_stats_move, -1)				\
	OVERLAY(STATS_DOWN, "stats-down", STATS, "<Down> j", "",			\
		"Select the row below", ns_tui_stats_move, 1)				\
	OVERLAY(STATS_PAGE_UP, "stats-page-up", STATS, "<PageUp>", "",			\
		"Up by a page", ns_tui_stats_page, -1)					\
	OVERLAY(STATS_PAGE_DOWN, "stats-page-down", STATS, "<PageDown> <Space>", "",	\
		"Down by a page", ns_tui_stats_page, 1)					\
	OVERLAY(STATS_FIRST, "stats-first", STATS, "<Home> g", "",			\
		"Select the first row", ns_tui_stats_end, -1)				\
	OVERLAY(STATS_LAST, "stats-last", STATS, "<End> G", "",				\
		"Select the last row", ns_tui_stats_end, 1)				\
	OVERLAY(STATS_LEFT, "stats-left", STATS, "<Left> h", "",			\
		"Scroll the table's columns to the left, a whole one at a time; the "	\
		"first (PID and COMM, CPU, EVENT) stay", ns_tui_stats_scroll, -1)	\
	OVERLAY(STATS_RIGHT, "stats-right", STATS, "<Right> l", "",			\
		"Scroll the table's columns to the right, a whole one at a time; the "	\
		"first (PID and COMM, CPU, EVENT) stay", ns_tui_stats_scroll, 1)	\
	OVERLAY(STATS_TABLE, "stats-table", STATS, "<Tab>", "table",			\
		"The next table: tasks, CPUs, event types", ns_tui_stats_table, 1)	\
	OVERLAY(STATS_TABLE_BACK, "stats-table-back", STATS, "<S-Tab>", "",		\
		"The previous table", ns_tui_stats_table, -1)				\
	OVERLAY(STATS_SORT, "stats-sort", STATS, "o", "sort",				\
		"Sort by the next column (the sorted column's title is marked)",	\
		ns_tui_stats_sort, 0)							\
	OVERLAY(STATS_REVERSE, "stats-reverse", STATS, "O", "reverse",			\
		"Reverse the order", ns_tui_stats_reverse, 0)				\
	OVERLAY(STATS_JUMP, "stats-jump", STATS, "<Enter>", "jump",			\
		"Tasks: put markers A and B on the task's worst wakeup latency (its wakeup " \
		"and its switch-in) and select the switch-in; close",			\
		ns_tui_stats_jump, 0)							\
	OVERLAY(STATS_ROW, "stats-row", STATS, "R", "row",				\
		"Tasks: add (or remove) the task's graph row", ns_tui_stats_row, 0)	\
	OVERLAY(STATS_CLOSE, "stats-close", STATS, "<Esc> q S", "close",		\
		"Close the statistics", ns_tui_stats_close, 0)				\
	OVERLAY(REC_UP, "record-up", RECORD, "<Up>", "",				\
		"The event above; in the fields below the list, the field above",	\
		ns_tui_rec_move, -1)							\
	OVERLAY(REC_DOWN, "record-down", RECORD, "<Down>", "",				\
		"The event below; in the fields, the field below", ns_tui_rec_move, 1)	\
	OVERLAY(REC_PAGE_UP, "record-page-up", RECORD, "<PageUp>", "",			\
		"Up by a page of events", ns_tui_rec_page, -1)				\
	OVERLAY(REC_PAGE_DOWN, "record-page-down", RECORD, "<PageDown>", "",		\
		"Down by a page of events", ns_tui_rec_page, 1)				\
	OVERLAY(REC_TOGGLE, "record-toggle", RECORD, "<Space>", "tick",		\
		"Tick or untick the event, or a whole system on its row; on the clock, " \
		"the next clock", ns_tui_rec_toggle, 0)					\
	OVERLAY(REC_NONE, "record-none", RECORD, "<C-x>", "none",			\
		"Untick every event", ns_tui_rec_none, 0)				\
	OVERLAY(REC_FIND, "record-find", RECORD, "/", "find",				\
		"Find events: a new text (what is typed in the list narrows it to the "	\
		"events whose SYSTEM:EVENT holds it)", ns_tui_rec_find, 0)		\
	OVERLAY(REC_ERASE, "record-erase", RECORD, "<BS>", "",				\
		"Take the last character off the find text or the field",		\
		ns_tui_rec_erase, 0)							\
	OVERLAY(REC_FIELD, "record-field", RECORD, "<Tab> <Enter>", "field",		\
		"The next field: the events, buffer size, clock, command, duration, "	\
		"output", ns_tui_rec_field, 1)						\
	OVERLAY(REC_FIELD_BACK, "record-field-back", RECORD, "<S-Tab>", "",		\
		"The previous field", ns_tui_rec_field, -1)				\
	OVERLAY(REC_START, "record-start", RECORD, "<C-r>", "record",			\
		"Record: the viewer gives the terminal to nurseshark record (its "	\
		"progress line; Ctrl-C stops it), then opens the new trace",		\
		ns_tui_rec_start, 0)							\
	OVERLAY(REC_LIVE, "record-live", RECORD, "<C-l>", "live",			\
		"Watch the ticked events live (nurseshark live); q there comes back "	\
		"to this trace", ns_tui_rec_start, 1)					\
	OVERLAY(REC_CLOSE, "record-close", RECORD, "<Esc>", "close",			\
		"Close the Record screen (its settings are kept for next time)",	\
		ns_tui_rec_close, 0)							\
	OVERLAY(JOB_CANCEL, "job-cancel", JOB, "<Esc>", "",				\
		"Cancel the filter pass or search under way: the filters, or the "	\
		"selection, stay as they were", ns_tui_job_cancel, 0)			\
	OVERLAY(JOB_QUIT, "job-quit", JOB, "q", "",					\
		"Quit nurseshark without waiting for the job", ns_tui_job_quit, 0)

enum ns_tui_action {
	NS_ACT_NONE = -1,
#define NS_TUI_ACTION_ENUM(id, name, any, list, graph, hint, help, fn, arg) NS_ACT_##id,
	NS_TUI_ACTIONS(NS_TUI_ACTION_ENUM)
#undef NS_TUI_ACTION_ENUM
#define NS_TUI_OVERLAY_ENUM(id, name, scope, keys, legend, help, fn, arg) NS_ACT_##id,
	NS_TUI_OVERLAY_ACTIONS(NS_TUI_OVERLAY_ENUM)
#undef NS_TUI_OVERLAY_ENUM
	NS_NR_ACTIONS,
};

struct ns_tui;

/* What an action does: the handler column of the table, given its arg column. */
typedef void ns_tui_handler_fn(struct ns_tui *t, int arg);

/* The handlers' declarations, from the table (a handler named twice is declared twice). */
#define NS_TUI_ACTION_PROTO(id, name, any, list, graph, hint, help, fn, arg) ns_tui_handler_fn fn;
NS_TUI_ACTIONS(NS_TUI_ACTION_PROTO)
#undef NS_TUI_ACTION_PROTO
#define NS_TUI_OVERLAY_PROTO(id, name, scope, keys, legend, help, fn, arg) ns_tui_handler_fn fn;
NS_TUI_OVERLAY_ACTIONS(NS_TUI_OVERLAY_PROTO)
#undef NS_TUI_OVERLAY_PROTO

#endif
