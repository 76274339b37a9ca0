// TaskCancelled: thrown inside a task when its job is being cancelled (by a failure
// elsewhere or by the user); the executor treats it as a quiet stop, not as a failure.
#pragma once

namespace eddy::runtime {

struct TaskCancelled {};

}  // namespace eddy::runtime
