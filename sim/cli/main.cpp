#include <iostream>

int main() {
  std::cout << "trainsim\n";
  return 0;
}
