#pragma once

class QWidget;

namespace spikeminer::gui {

/// Shows the CUDA devices this build can use (name, memory, multiprocessors), or why
/// there are none, in a modal message box.
void show_device_dialog(QWidget* parent);

}  // namespace spikeminer::gui
