// Compiled once to produce the precompiled header shared by every eddy target.
