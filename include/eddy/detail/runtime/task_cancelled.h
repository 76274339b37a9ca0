// TaskCancelled: thrown inside a task when its job is being cancelled (by a failure
// elsewhere or by the user); the executor treats it as a quiet stop, not as a failure.
//
// Internal (eddy/detail/): installed only because the collect sink's queue (a template in
// eddy/datastream/sinks.h) throws it; users do not include it.
#pragma once

namespace eddy::runtime {

struct TaskCancelled {};

}  // namespace eddy::runtime
